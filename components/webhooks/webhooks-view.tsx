"use client";

import { useId, useState } from "react";
import { formatDateTime } from "@/components/ui/format";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { errorMessage } from "@/lib/dashboard/api-client";
import { useRemoveWebhook, useRotateSecret, useSendTest, useSetWebhookEnabled, useWebhooks } from "@/lib/dashboard/webhooks";
import type { WebhookRecord } from "@/lib/webhooks/schemas";
import { DeliveryLog } from "./delivery-log";
import { SecretNotice, type ShownSecret } from "./secret-notice";
import { WebhookForm } from "./webhook-form";

function stateOf(webhook: WebhookRecord): { label: string; color: string } {
  if (!webhook.enabled) {
    return webhook.disabledReason === "failing"
      ? { label: "Disabled: every delivery failed for 3 days", color: "#dc2626" }
      : { label: "Disabled", color: "#64748b" };
  }
  if (webhook.failingSince) return { label: `Failing since ${formatDateTime(webhook.failingSince)}`, color: "#d97706" };
  return { label: "Enabled", color: "#16a34a" };
}

function WebhookItem({ webhook, onSecret }: { webhook: WebhookRecord; onSecret: (shown: ShownSecret) => void }) {
  const id = useId();
  const [showLog, setShowLog] = useState(false);
  const [confirming, setConfirming] = useState(false);
  const [notice, setNotice] = useState("");
  const setEnabled = useSetWebhookEnabled();
  const remove = useRemoveWebhook();
  const rotate = useRotateSecret();
  const test = useSendTest();
  const state = stateOf(webhook);
  const failed = (what: string) => (error: unknown) => setNotice(`Could not ${what}: ${errorMessage(error)}`);
  const busy = setEnabled.isPending || remove.isPending || rotate.isPending || test.isPending;

  return (
    <li>
      <article className="detail webhook" aria-labelledby={`${id}-url`}>
        <div className="webhook-head">
          <h2 id={`${id}-url`} className="webhook-url">
            {webhook.url}
          </h2>
          <span className="badge" style={{ ["--badge" as string]: state.color }}>
            {state.label}
          </span>
        </div>
        {webhook.description ? <p>{webhook.description}</p> : null}
        <ul className="chips" aria-label="Events">
          {webhook.events.map((type) => (
            <li key={type} className="chip">
              {type}
            </li>
          ))}
        </ul>
        <p className="subtle">
          Added {formatDateTime(webhook.createdAt)}
          {webhook.previousSecretExpiresAt ? `; the previous secret signs too until ${formatDateTime(webhook.previousSecretExpiresAt)}` : ""}
        </p>
        <div className="webhook-actions">
          <button
            type="button"
            className="button button-small"
            disabled={busy}
            onClick={() =>
              test.mutate(webhook.id, {
                onSuccess: ({ data }) => {
                  setNotice(`Test event ${data.eventId} queued; it appears in the delivery log.`);
                  setShowLog(true);
                },
                onError: failed("send a test"),
              })
            }
          >
            Send test
          </button>
          <button
            type="button"
            className="button button-small"
            disabled={busy}
            onClick={() =>
              setEnabled.mutate(
                { id: webhook.id, enabled: !webhook.enabled },
                { onSuccess: () => setNotice(webhook.enabled ? "Disabled: no events are sent." : "Enabled."), onError: failed("change it") },
              )
            }
          >
            {webhook.enabled ? "Disable" : "Enable"}
          </button>
          <button
            type="button"
            className="button button-small"
            disabled={busy}
            onClick={() =>
              rotate.mutate(webhook.id, {
                onSuccess: ({ data }) => onSecret({ url: data.url, secret: data.secret, rotated: true }),
                onError: failed("rotate the secret"),
              })
            }
          >
            Rotate secret
          </button>
          <button type="button" className="button button-small" aria-expanded={showLog} onClick={() => setShowLog((v) => !v)}>
            {showLog ? "Hide delivery log" : "Delivery log"}
          </button>
          {confirming ? null : (
            <button type="button" className="button button-small button-ghost" disabled={busy} onClick={() => setConfirming(true)}>
              Remove
            </button>
          )}
        </div>
        {confirming ? (
          <div className="alert" role="alertdialog" aria-labelledby={`${id}-confirm`}>
            <p id={`${id}-confirm`}>Remove this endpoint and its delivery log? Events are no longer sent to it.</p>
            <button
              type="button"
              className="button button-small"
              disabled={busy}
              onClick={() => remove.mutate(webhook.id, { onError: failed("remove it"), onSettled: () => setConfirming(false) })}
            >
              Remove endpoint
            </button>{" "}
            <button type="button" className="button button-small button-ghost" onClick={() => setConfirming(false)}>
              Cancel
            </button>
          </div>
        ) : null}
        <p className="hint" aria-live="polite">
          {notice}
        </p>
        {showLog ? <DeliveryLog webhookId={webhook.id} url={webhook.url} /> : null}
      </article>
    </li>
  );
}

/** The endpoints, the form that adds one, and the secret of the one just added or rotated. */
export function WebhooksView() {
  const webhooks = useWebhooks();
  const [shown, setShown] = useState<ShownSecret | null>(null);
  const data = webhooks.data;

  let list: React.ReactNode;
  if (webhooks.isError && !data) {
    list = <ErrorState title="The webhooks could not be loaded." error={webhooks.error} onRetry={() => webhooks.refetch()} />;
  } else if (!data) {
    list = (
      <p className="subtle" role="status">
        Loading the webhooks…
      </p>
    );
  } else if (!data.data.length) {
    list = <EmptyState title="No webhook endpoints yet.">Add one above to receive comment events as they happen.</EmptyState>;
  } else {
    list = (
      <ul className="webhook-list" aria-label="Webhook endpoints">
        {data.data.map((webhook) => (
          <WebhookItem key={webhook.id} webhook={webhook} onSecret={setShown} />
        ))}
      </ul>
    );
  }

  return (
    <>
      <div className="page-header">
        <h1>Webhooks</h1>
        <p className="subtle">
          Endpoints that receive comment events, signed (Standard Webhooks), retried until they answer, with every attempt kept.
        </p>
      </div>
      {shown ? <SecretNotice key={shown.secret} shown={shown} onDismiss={() => setShown(null)} /> : null}
      <WebhookForm onCreated={(created) => setShown({ url: created.url, secret: created.secret, rotated: false })} />
      {webhooks.isError && data ? (
        <div className="alert" role="alert">
          Could not refresh the webhooks: {errorMessage(webhooks.error)}
        </div>
      ) : null}
      {list}
    </>
  );
}
