import type { Metadata } from "next";
import { redirect } from "next/navigation";
import { LoginForm } from "@/components/auth/login-form";
import { pageSession } from "@/lib/auth/page-session";

export const dynamic = "force-dynamic";
export const metadata: Metadata = { title: "Sign in" };

// Set by POST /api/session when the form was sent without script.
const ERRORS: Record<string, string> = {
  invalid: "That API key is not valid or has been revoked. Check it and try again.",
  missing: "Enter your API key.",
  limited: "Too many sign-in attempts from this address. Wait a minute, then try again.",
};

export default async function LoginPage({ searchParams }: { searchParams: Promise<{ error?: string | string[] }> }) {
  if ((await pageSession()).status === "signed-in") redirect("/posts");
  const { error } = await searchParams;
  return (
    <main className="login">
      <LoginForm initialError={typeof error === "string" ? (ERRORS[error] ?? null) : null} />
    </main>
  );
}
