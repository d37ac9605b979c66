"use client";

import { createContext, type ReactNode, useContext } from "react";
import type { Scope } from "@/lib/auth/keys";

interface Session {
  keyName: string;
  scopes: Scope[];
}

const SessionContext = createContext<Session>({ keyName: "", scopes: [] });

export function SessionProvider({ session, children }: { session: Session; children: ReactNode }) {
  return <SessionContext.Provider value={session}>{children}</SessionContext.Provider>;
}

export function useSession(): Session & { canWrite: boolean; isAdmin: boolean } {
  const session = useContext(SessionContext);
  return { ...session, canWrite: session.scopes.includes("write"), isAdmin: session.scopes.includes("admin") };
}
