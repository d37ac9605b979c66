import type { Metadata } from "next";
import { WebhooksView } from "@/components/webhooks/webhooks-view";
import { EmptyState } from "@/components/ui/states";
import { pageSession } from "@/lib/auth/page-session";

export const metadata: Metadata = { title: "Webhooks" };

// Webhooks are managed with the admin scope: others are told so (the API would refuse them
// with 403 anyway).
export default async function WebhooksPage() {
  const session = await pageSession();
  if (session.status !== "signed-in" || !session.principal.scopes.includes("admin")) {
    return (
      <EmptyState title="Webhooks need an admin key.">
        Sign in with a key created with the admin scope (feedback keys create --scopes read,write,admin) to manage webhooks.
      </EmptyState>
    );
  }
  return <WebhooksView />;
}
