import { redirect } from "next/navigation";
import type { ReactNode } from "react";
import { NavBar } from "@/components/layout/nav-bar";
import { SessionProvider } from "@/components/session/session-provider";
import { SessionUnavailable } from "@/components/session/session-unavailable";
import { pageSession } from "@/lib/auth/page-session";

export const dynamic = "force-dynamic";

// Every dashboard page needs a live session; the key's scopes decide which controls show.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const session = await pageSession();
  if (session.status === "signed-out") redirect("/login");
  if (session.status === "unavailable") {
    return (
      <main id="main" className="main" tabIndex={-1}>
        <SessionUnavailable />
      </main>
    );
  }
  const { principal } = session;
  return (
    <SessionProvider session={{ keyName: principal.keyName, scopes: principal.scopes }}>
      <NavBar />
      <main id="main" className="main" tabIndex={-1}>
        {children}
      </main>
    </SessionProvider>
  );
}
