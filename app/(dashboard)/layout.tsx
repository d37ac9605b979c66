import type { ReactNode } from "react";
import { NavBar } from "@/components/layout/nav-bar";
import { SessionProvider } from "@/components/session/session-provider";
import { requirePageSession } from "@/lib/auth/page-session";

export const dynamic = "force-dynamic";

// Every dashboard page needs a live session; the key's scopes decide which controls show.
export default async function DashboardLayout({ children }: { children: ReactNode }) {
  const principal = await requirePageSession();
  return (
    <SessionProvider session={{ keyName: principal.keyName, scopes: principal.scopes }}>
      <NavBar />
      <main id="main" className="main" tabIndex={-1}>
        {children}
      </main>
    </SessionProvider>
  );
}
