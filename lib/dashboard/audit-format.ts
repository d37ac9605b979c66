// How the Activity page words an audit event: the action, what it concerns, and what changed.
// Pure, so it is unit-tested without a browser.

import type { AuditAction } from "../audit/record";
import type { AuditEventRecord } from "../audit/schemas";

export const ACTION_LABELS: Record<AuditAction, string> = {
  "comment.updated": "Comment edited",
  "comment.pinned": "Comment pinned",
  "comment.unpinned": "Comment unpinned",
  "key.created": "Key created",
  "key.revoked": "Key revoked",
  "import.applied": "Import applied",
  "session.created": "Signed in",
  "session.refused": "Sign-in refused",
  "session.ended": "Signed out",
  "webhook.created": "Webhook added",
  "webhook.updated": "Webhook changed",
  "webhook.deleted": "Webhook removed",
  "webhook.secret_rotated": "Webhook secret rotated",
  "webhook.tested": "Webhook test sent",
  "webhook.redelivered": "Webhook event redelivered",
  "webhook.replayed": "Webhook events replayed",
  "webhook.disabled": "Webhook disabled (failing)",
};

export const ACTIONS = Object.keys(ACTION_LABELS) as AuditAction[];

export const RESOURCE_TYPES = ["comment", "key", "import", "session", "webhook"] as const;

export const VIA_LABELS: Record<AuditEventRecord["actor"]["via"], string> = {
  api: "API",
  dashboard: "dashboard",
  cli: "command line",
  system: "the service itself",
};

/** Where the dashboard shows the resource an event concerns, if it shows it at all. */
export function resourceHref(event: Pick<AuditEventRecord, "resource">): string | null {
  const { type, id } = event.resource;
  // A comment's page is its post's; /comments/:id finds the post and goes there.
  if (type === "comment" && id) return `/comments/${encodeURIComponent(id)}`;
  return null;
}

const MAX_TEXT = 80;

function shown(value: unknown): string {
  if (value === null || value === undefined) return "none";
  if (typeof value === "boolean") return value ? "yes" : "no";
  const text = typeof value === "string" ? value : JSON.stringify(value);
  const chars = [...text];
  return chars.length > MAX_TEXT ? `${chars.slice(0, MAX_TEXT - 1).join("")}…` : text;
}

const FIELD_LABELS: Record<string, string> = {
  commentDescription: "Text",
  pinned: "Pinned",
  revokedAt: "Revoked",
  expiresAt: "Expires",
  url: "URL",
  events: "Events",
  description: "Description",
  enabled: "Enabled",
  disabledReason: "Why disabled",
  failingSince: "Failing since",
  previousSecretExpiresAt: "Old secret signs until",
  name: "Name",
  scopes: "Scopes",
};

const isChange = (value: unknown): value is { from: unknown; to: unknown } =>
  typeof value === "object" && value !== null && "from" in value && "to" in value;

/**
 * One line per changed field ("Text: old → new"), or per count of an import ("posts: 12").
 * Long text is cut short; the full values are in the API's answer.
 */
export function changeLines(changes: Record<string, unknown>): string[] {
  return Object.entries(changes).map(([field, value]) => {
    const label = FIELD_LABELS[field] ?? field;
    return isChange(value) ? `${label}: ${shown(value.from)} → ${shown(value.to)}` : `${label}: ${shown(value)}`;
  });
}

const MINUTE = 60_000;

/**
 * A datetime-local input's value (a minute, in the browser's own time zone) as ISO 8601, or
 * undefined. The end of a range takes the minute's last millisecond, so "to 17:30" keeps the
 * events of 17:30 itself.
 */
export function localToIso(value: string, end: "start" | "end" = "start"): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return undefined;
  return new Date(date.getTime() + (end === "end" ? MINUTE - 1 : 0)).toISOString();
}

/** A time from the address, if it is one. */
export function validIso(value: string | null): string | undefined {
  if (!value) return undefined;
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? undefined : date.toISOString();
}

/** An ISO 8601 time as a datetime-local input's value, in the browser's own time zone. */
export function isoToLocal(iso: string | null): string {
  if (!iso) return "";
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return "";
  const local = new Date(date.getTime() - date.getTimezoneOffset() * MINUTE);
  return local.toISOString().slice(0, 16);
}
