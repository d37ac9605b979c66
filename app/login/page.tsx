import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/auth/login-form";
import { pageSession } from "@/lib/auth/page-session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

export default async function LoginPage() {
  if (await pageSession()) redirect("/posts");
  return (
    <main className="login">
      <LoginForm />
    </main>
  );
}
