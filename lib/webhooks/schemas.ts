import { z } from "zod";
import { isoDateTime } from "../dates";
import { WEBHOOK_EVENT_TYPES } from "./events";

// The webhook endpoint as the API, the command line and the dashboard see it (never its
// secret, which is shown once, when it is made or rotated), and the input that makes or
// changes one.

const eventList = z
  .array(z.string({ error: "must be event types" }), { error: "must be a list of event types" })
  .transform((types) => [...new Set(types.flatMap((t) => t.split(",")).map((t) => t.trim()).filter(Boolean))])
  .pipe(
    z
      .array(z.enum(WEBHOOK_EVENT_TYPES, { error: `must be among ${WEBHOOK_EVENT_TYPES.join(", ")}` }))
      .min(1, "give at least one event type"),
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
