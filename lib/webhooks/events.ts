// The webhook event catalogue: what an endpoint can subscribe to. Pure, so the dashboard can
// offer the same list.

export const WEBHOOK_EVENT_TYPES = ["comment.updated", "comment.pinned", "comment.unpinned"] as const;
export type WebhookEventType = (typeof WEBHOOK_EVENT_TYPES)[number];

/** The event types an endpoint's `events` column holds (comma-separated, as stored). */
export const storedEventTypes = (column: string) => column.split(",").filter(Boolean) as WebhookEventType[];

/** Sent by `feedback webhooks test` and the test button, to one endpoint whatever it subscribes to. */
export const TEST_EVENT_TYPE = "webhook.test";

export const EVENT_DESCRIPTIONS: Record<WebhookEventType, string> = {
  "comment.updated": "A comment's text was changed.",
  "comment.pinned": "A comment was pinned.",
  "comment.unpinned": "A comment was unpinned.",
};
