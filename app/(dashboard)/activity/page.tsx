import type { Metadata } from "next";
import { Suspense } from "react";
import { ActivityView } from "@/components/activity/activity-view";
import { EmptyState } from "@/components/ui/states";
import { pageSession } from "@/lib/auth/page-session";

export const metadata: Metadata = { title: "Activity" };

// The audit trail is for keys with the admin scope: others are told so (the API would refuse
// them with 403 anyway).
export default async function ActivityPage() {
  const session = await pageSession();
  if (session.status !== "signed-in" || !session.principal.scopes.includes("admin")) {
    return (
      <EmptyState title="Activity needs an admin key.">
        Sign in with a key created with the admin scope (feedback keys create --scopes read,write,admin) to see the audit trail.
      </EmptyState>
    );
  }
  return (
    <Suspense>
      <ActivityView />
    </Suspense>
  );
}
