"use client";

import { Fragment, useId, useState } from "react";
import { formatDateTime } from "@/components/ui/format";
import { EmptyState, ErrorState } from "@/components/ui/states";
import { errorMessage } from "@/lib/dashboard/api-client";
import { useDeliveries, useRedeliver } from "@/lib/dashboard/webhooks";
import type { WebhookDeliveryRecord } from "@/lib/webhooks/schemas";

const STATUS_COLORS: Record<WebhookDeliveryRecord["status"], string> = {
  pending: "#d97706",
  delivered: "#16a34a",
  failed: "#dc2626",
};

function Attempts({ delivery, id }: { delivery: WebhookDeliveryRecord; id: string }) {
  if (!delivery.log.length) return <p id={id} className="subtle">Not attempted yet.</p>;
  return (
    <ol id={id} className="attempts">
      {delivery.log.map((attempt, i) => (
        <li key={attempt.attemptedAt + String(i)}>
          <p>
            <strong>Attempt {i + 1}</strong>, {formatDateTime(attempt.attemptedAt)}: {attempt.statusCode === null ? "no answer" : `HTTP ${attempt.statusCode}`} in{" "}
            {attempt.durationMs} ms
          </p>
          {attempt.error ? <p className="field-error">Error: {attempt.error}</p> : null}
          {attempt.responseBody ? (
            <>
              <p className="subtle">Answer body (the first 2 KB):</p>
              <pre className="attempt-body">{attempt.responseBody}</pre>
            </>
          ) : (
            <p className="subtle">No answer body.</p>
          )}
        </li>
      ))}
    </ol>
  );
}

/** An endpoint's deliveries, newest first, with their attempts and a Redeliver button each. */
export function DeliveryLog({ webhookId, url }: { webhookId: string; url: string }) {
  const id = useId();
  const [cursors, setCursors] = useState<string[]>([]);
  const cursor = cursors.at(-1);
  const deliveries = useDeliveries(webhookId, cursor);
  const redeliver = useRedeliver();
  const [open, setOpen] = useState<Set<string>>(new Set());
  const [notice, setNotice] = useState("");

  const toggle = (deliveryId: string) =>
    setOpen((current) => {
      const next = new Set(current);
      if (!next.delete(deliveryId)) next.add(deliveryId);
      return next;
    });

  const send = (delivery: WebhookDeliveryRecord) =>
    redeliver.mutate(
      { webhookId, deliveryId: delivery.id },
      {
        onSuccess: () => {
          setCursors([]);
          setNotice(`${delivery.type} (${delivery.eventId}) queued again.`);
        },
        onError: (error) => setNotice(`Could not redeliver: ${errorMessage(error)}`),
      },
    );

  const data = deliveries.data;
  if (deliveries.isError && !data) {
    return <ErrorState title="The delivery log could not be loaded." error={deliveries.error} onRetry={() => deliveries.refetch()} />;
  }
  if (!data) return <p className="subtle" role="status">Loading the delivery log…</p>;
  if (!data.data.length && !cursor) {
    return <EmptyState title="No deliveries yet.">Events this endpoint subscribes to, and test events, appear here.</EmptyState>;
  }

  return (
    <div className="delivery-log">
      <p className="hint" aria-live="polite">
        {notice}
      </p>
      <div className="table-card">
        <table className="table" aria-label={`Deliveries to ${url}`} aria-busy={deliveries.isFetching || undefined}>
          <thead>
            <tr>
              <th scope="col">Event</th>
              <th scope="col">Status</th>
              <th scope="col" className="num">
                Attempts
              </th>
              <th scope="col">Last HTTP status</th>
              <th scope="col">Time</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {data.data.map((delivery) => {
              const last = delivery.log.at(-1);
              const expanded = open.has(delivery.id);
              const attemptsId = `${id}-${delivery.id}`;
              return (
                <Fragment key={delivery.id}>
                  <tr>
                    <td data-label="Event">
                      <code>{delivery.type}</code>
                      <br />
                      <span className="subtle" title="The webhook-id header: the same on every attempt and redelivery">
                        {delivery.eventId}
                      </span>
                    </td>
                    <td data-label="Status">
                      <span className="badge" style={{ ["--badge" as string]: STATUS_COLORS[delivery.status] }}>
                        {delivery.status}
                      </span>
                    </td>
                    <td data-label="Attempts" className="num">
                      {delivery.attempts}
                    </td>
                    <td data-label="Last HTTP status">{last ? (last.statusCode ?? "no answer") : "-"}</td>
                    <td data-label="Time" className="nowrap">
                      {formatDateTime(last?.attemptedAt ?? delivery.createdAt)}
                    </td>
                    <td data-label="Actions" className="nowrap">
                      <button
                        type="button"
                        className="button button-small button-ghost"
                        aria-expanded={expanded}
                        aria-controls={expanded ? attemptsId : undefined}
                        aria-label={`Attempts of ${delivery.type} ${delivery.eventId}`}
                        onClick={() => toggle(delivery.id)}
                      >
                        {expanded ? "Hide attempts" : "Attempts"}
                      </button>{" "}
                      <button
                        type="button"
                        className="button button-small"
                        aria-label={`Redeliver ${delivery.type} ${delivery.eventId}`}
                        disabled={redeliver.isPending}
                        onClick={() => send(delivery)}
                      >
                        Redeliver
                      </button>
                    </td>
                  </tr>
                  {expanded ? (
                    <tr>
                      <td colSpan={6}>
                        <Attempts delivery={delivery} id={attemptsId} />
                      </td>
                    </tr>
                  ) : null}
                </Fragment>
              );
            })}
          </tbody>
        </table>
      </div>
      <nav className="pager" aria-label={`Delivery log pages for ${url}`}>
        <div className="pager-buttons">
          <button type="button" className="button button-small" onClick={() => setCursors([])} disabled={!cursor}>
            Newest
          </button>
          <button
            type="button"
            className="button button-small"
            onClick={() => data.nextCursor && setCursors((c) => [...c, data.nextCursor as string])}
            disabled={!data.nextCursor}
          >
            Older deliveries
          </button>
        </div>
      </nav>
    </div>
  );
}
