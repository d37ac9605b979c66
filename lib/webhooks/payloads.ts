import "server-only";
import { z } from "zod";
import { AUDIT_VIAS } from "../audit/record";
import { commentRecord } from "../comments/schemas";
import { isoDateTime } from "../dates";
import { EVENT_DESCRIPTIONS, TEST_EVENT_TYPE, WEBHOOK_EVENT_TYPES, type WebhookEventType } from "./events";

// The body of every event, as a receiver gets it: the catalogue in the OpenAPI document's
// `webhooks` and the README. lib/comments/service.ts and lib/webhooks/endpoints.ts build them.

const actor = z
  .object({
    keyId: z.string().nullable(),
    name: z.string(),
    via: z.enum(AUDIT_VIAS),
  })
  .meta({
    description: "Who made the change: the key (its name then) and how; the command line acts with no key.",
  });

const change = <T extends z.ZodType>(value: T) => z.object({ from: value, to: value });

const CHANGES: Record<WebhookEventType, z.ZodObject> = {
  "comment.updated": z.object({ commentDescription: change(z.string()) }),
  "comment.pinned": z.object({ pinned: change(z.boolean()) }),
  "comment.unpinned": z.object({ pinned: change(z.boolean()) }),
};

const envelope = (type: string, data: z.ZodType, description: string) =>
  z
    .object({
      type: z.literal(type),
      timestamp: isoDateTime.meta({ description: "When the change happened." }),
      data,
    })
    .meta({ description });

/** Each event type's body. */
export const eventPayloads: Record<string, z.ZodType> = {
  ...Object.fromEntries(
    WEBHOOK_EVENT_TYPES.map((type) => [
      type,
      envelope(type, z.object({ comment: commentRecord, changes: CHANGES[type], actor }), EVENT_DESCRIPTIONS[type]),
    ]),
  ),
  [TEST_EVENT_TYPE]: envelope(
    TEST_EVENT_TYPE,
    z.object({
      webhook: z.object({ id: z.string(), url: z.string() }),
      message: z.string(),
    }),
    "Sent to one endpoint by its test button, `feedback webhooks test` or POST /webhooks/{webhookId}/test.",
  ),
};
