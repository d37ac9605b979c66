import { z } from "zod";
import { intParam } from "../api/query";
import { isoDateTime } from "../dates";
import { idCursorParam } from "../api/id-cursor";
import { WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./events";

// The webhook endpoint as the API, the command line and the dashboard see it (never its
// secret, which is shown once, when it is made or rotated), and the input that makes or
// changes one.

const eventList = z
  .array(z.string({ error: "must be event types" }), { error: "must be a list of event types" })
  .transform((types) => [...new Set(types.flatMap((t) => t.split(",")).map((t) => t.trim()).filter(Boolean))])
  .pipe(
    // The whole list is the field, so a refusal names `events` and the types it does not know.
    z
      .array(z.string())
      .min(1, "give at least one event type")
      .superRefine((types, ctx) => {
        const unknown = types.filter((t) => !(WEBHOOK_EVENT_TYPES as readonly string[]).includes(t));
        if (unknown.length) {
          const named = unknown.map((t) => JSON.stringify(t)).join(", ");
          ctx.addIssue({
            code: "custom",
            message: `${named} ${unknown.length === 1 ? "is not an event type" : "are not event types"}; must be among ${WEBHOOK_EVENT_TYPES.join(", ")}`,
          });
        }
      })
      .transform((types) => types as WebhookEventType[]),
  )
  .meta({ description: `The event types to receive: ${WEBHOOK_EVENT_TYPES.join(", ")}.` });

const url = z
  .string({ error: "must be a URL" })
  .trim()
  .min(1, "must be a URL")
  .max(2000, "must be at most 2,000 characters")
  .meta({ description: "Where events are POSTed: https (http only when WEBHOOK_ALLOW_HTTP=true), a public address." });

const description = z
  .string({ error: "must be text" })
  .trim()
  .max(500, "must be at most 500 characters")
  .meta({ description: "What the endpoint is for." });

export const createWebhookBody = z.object({ url, events: eventList, description: description.optional() });
export type CreateWebhookInput = z.output<typeof createWebhookBody>;

export const updateWebhookBody = z
  .object({
    url: url.optional(),
    events: eventList.optional(),
    description: description.optional(),
    enabled: z.boolean({ error: "must be true or false" }).optional(),
  })
  .refine((b) => Object.values(b).some((v) => v !== undefined), { message: "give url, events, description or enabled", path: ["body"] });
export type UpdateWebhookInput = z.output<typeof updateWebhookBody>;

export const webhookParams = z.object({ webhookId: z.string().min(1).max(200) });

export const webhookRecord = z
  .object({
    id: z.string(),
    url: z.string(),
    description: z.string(),
    events: z.array(z.enum(WEBHOOK_EVENT_TYPES)),
    enabled: z.boolean(),
    disabledReason: z
      .enum(["manual", "failing"])
      .nullable()
      .meta({ description: "Why a disabled endpoint is disabled: by hand, or because every delivery failed for 3 days." }),
    failingSince: isoDateTime.nullable().meta({ description: "The first failed delivery since the last success." }),
    previousSecretExpiresAt: isoDateTime
      .nullable()
      .meta({ description: "After a rotation: until when the old secret also signs." }),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
  })
  .meta({ id: "Webhook" });
export type WebhookRecord = z.infer<typeof webhookRecord>;

/** An endpoint with its secret: the answer to creating one or rotating its secret, the only times it is shown. */
export const webhookWithSecretRecord = webhookRecord
  .extend({ secret: z.string().meta({ description: "whsec_ and the base64 of 32 random bytes. Shown only now." }) })
  .meta({ id: "WebhookWithSecret" });
export type WebhookWithSecretRecord = z.infer<typeof webhookWithSecretRecord>;

export const webhookDeliveryParams = webhookParams.extend({ deliveryId: z.string().min(1).max(200) });

export const listDeliveriesQuery = z.object({
  cursor: idCursorParam(
    "dlv",
    "Start after the last delivery of an earlier page: its nextCursor. Stays valid while deliveries are added.",
  ),
  limit: intParam(1, 100, 20).meta({ description: "Deliveries per page, 1 to 100.", default: 20 }),
});

export const replayQuery = z.object({
  since: z
    .string({ error: "give the time to replay from, such as 2026-01-02T03:04:05Z" })
    .trim()
    .pipe(z.iso.datetime({ offset: true, error: "must be an ISO 8601 date-time, such as 2026-01-02T03:04:05Z" }))
    .transform((value) => new Date(value))
    .meta({ description: "Replay every event this endpoint was given at or after this time (ISO 8601)." }),
});

export const webhookAttemptRecord = z
  .object({
    attemptedAt: isoDateTime,
    statusCode: z
      .number()
      .int()
      .nullable()
      .meta({ description: "The HTTP status, or null when no answer came (timeout, refused, blocked address)." }),
    durationMs: z.number().int(),
    responseBody: z.string().nullable().meta({ description: "The first 2 KB of the answer's body." }),
    error: z.string().nullable(),
  })
  .meta({ id: "WebhookAttempt" });

export const webhookDeliveryRecord = z
  .object({
    id: z.string().meta({ description: "Sortable: a later delivery has a greater id." }),
    eventId: z
      .string()
      .meta({ description: "The event's id, sent as the webhook-id header: the same on every attempt, redelivery and replay." }),
    type: z.string().meta({ description: "The event type (or webhook.test)." }),
    status: z.enum(["pending", "delivered", "failed"]),
    attempts: z.number().int().min(0),
    nextAttemptAt: isoDateTime.nullable().meta({ description: "When a pending delivery is next due; null once delivered or failed." }),
    createdAt: isoDateTime,
    updatedAt: isoDateTime,
    log: z.array(webhookAttemptRecord).meta({ description: "Every attempt kept (WEBHOOK_LOG_DAYS), oldest first." }),
  })
  .meta({ id: "WebhookDelivery" });
export type WebhookDeliveryRecord = z.infer<typeof webhookDeliveryRecord>;

export const webhookTestRecord = z
  .object({ eventId: z.string().meta({ description: "The webhook.test event's id (its webhook-id)." }) })
  .meta({ id: "WebhookTest" });

export const webhookReplayRecord = z
  .object({
    since: isoDateTime,
    count: z.number().int().min(0).meta({ description: "How many events were queued again." }),
  })
  .meta({ id: "WebhookReplay" });
