import "server-only";
import { type Actor, type Changes, recordEvent, type RequestMeta } from "../audit/record";
import { ApiError } from "../api/errors";
import { db, type Tx, write } from "../db";
import { env } from "../env";
import { sortableId } from "../ids";
import { type AddressPolicy, assertPublicHost, parseWebhookUrl, WebhookAddressError } from "./address";
import { storedEventTypes, TEST_EVENT_TYPE } from "./events";
import { enqueueEvent } from "./outbox";
import type { CreateWebhookInput, UpdateWebhookInput, WebhookRecord } from "./schemas";
import { generateSecret } from "./secret";

// The webhook endpoints' data layer, shared by the API, the command line and the dashboard.
// Every change is audited in its own transaction; a URL is checked (scheme, public address)
// before it is stored, and again by the dispatcher at every delivery.

/** How long a rotated-out secret keeps signing beside the new one. */
export const ROTATION_OVERLAP_MS = 24 * 3_600_000;

export interface ChangeContext {
  actor: Actor;
  request?: RequestMeta;
}

interface EndpointRow {
  id: string;
  url: string;
  description: string;
  events: string;
  enabled: boolean;
  disabledReason: string | null;
  failingSince: Date | null;
  previousExpiresAt: Date | null;
  createdAt: Date;
  updatedAt: Date;
}

const SELECT = {
  id: true,
  url: true,
  description: true,
  events: true,
  enabled: true,
  disabledReason: true,
  failingSince: true,
  previousExpiresAt: true,
  createdAt: true,
  updatedAt: true,
} as const;

export function addressPolicy(): AddressPolicy {
  const config = env();
  return { allowHttp: config.WEBHOOK_ALLOW_HTTP, allowPrivate: config.WEBHOOK_ALLOW_PRIVATE };
}

function serialize(row: EndpointRow): WebhookRecord {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: storedEventTypes(row.events),
    enabled: row.enabled,
    disabledReason: (row.disabledReason as WebhookRecord["disabledReason"]) ?? null,
    failingSince: row.failingSince?.toISOString() ?? null,
    previousSecretExpiresAt: row.previousExpiresAt && row.previousExpiresAt > new Date() ? row.previousExpiresAt.toISOString() : null,
    createdAt: row.createdAt.toISOString(),
    updatedAt: row.updatedAt.toISOString(),
  };
}

/** The URL, checked: a refusal is a 400 naming `url`. */
async function checkedUrl(raw: string): Promise<string> {
  const policy = addressPolicy();
  try {
    const url = parseWebhookUrl(raw, policy);
    await assertPublicHost(url, policy);
    return url.toString();
  } catch (error) {
    if (error instanceof WebhookAddressError) throw ApiError.invalid("url", error.message);
    throw error;
  }
}

const notFound = (id: string) => new ApiError("not_found", `No webhook has the id "${id}".`);

async function existing(tx: Tx, id: string): Promise<EndpointRow> {
  const row = await tx.webhookEndpoint.findUnique({ where: { id }, select: SELECT });
  if (!row) throw notFound(id);
  return row;
}

export async function listEndpoints(): Promise<WebhookRecord[]> {
  const rows = await db.webhookEndpoint.findMany({ select: SELECT, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
  return rows.map(serialize);
}

export async function findEndpoint(id: string): Promise<WebhookRecord | null> {
  const row = await db.webhookEndpoint.findUnique({ where: { id }, select: SELECT });
  return row ? serialize(row) : null;
}

/** Makes an endpoint; its secret is in the answer and nowhere else ever again. */
export async function createEndpoint(input: CreateWebhookInput, context: ChangeContext): Promise<WebhookRecord & { secret: string }> {
  const url = await checkedUrl(input.url);
  const now = new Date();
  const secret = generateSecret();
  const id = sortableId("whk", now);
  const row = await write(() =>
    db.$transaction(async (tx) => {
      const created = await tx.webhookEndpoint.create({
        data: { id, url, description: input.description ?? "", events: input.events.join(","), secret, createdAt: now, updatedAt: now },
        select: SELECT,
      });
      await recordEvent(
        tx,
        {
          action: "webhook.created",
          resourceType: "webhook",
          resourceId: id,
          changes: { url: { from: null, to: url }, events: { from: null, to: input.events }, description: { from: null, to: created.description } },
          actor: context.actor,
          request: context.request,
        },
        now,
      );
      return created;
    }),
  );
  return { ...serialize(row), secret };
}

/** Changes an endpoint's URL, events, description or enabled flag. */
export async function updateEndpoint(id: string, input: UpdateWebhookInput, context: ChangeContext): Promise<WebhookRecord> {
  const url = input.url === undefined ? undefined : await checkedUrl(input.url);
  const now = new Date();
  const row = await write(() =>
    db.$transaction(async (tx) => {
      const before = await existing(tx, id);
      const data: Record<string, unknown> = { updatedAt: now };
      const changes: Changes = {};
      const set = (field: string, from: unknown, to: unknown, stored: unknown = to) => {
        if (JSON.stringify(from) === JSON.stringify(to)) return;
        changes[field] = { from, to };
        data[field] = stored;
      };
      if (url !== undefined) set("url", before.url, url);
      if (input.description !== undefined) set("description", before.description, input.description);
      if (input.events !== undefined) set("events", before.events.split(","), input.events, input.events.join(","));
      if (input.enabled !== undefined && input.enabled !== before.enabled) {
        set("enabled", before.enabled, input.enabled);
        data.disabledReason = input.enabled ? null : "manual";
        // Enabled again by hand: its failing streak starts over.
        if (input.enabled) data.failingSince = null;
      }
      const after = await tx.webhookEndpoint.update({ where: { id }, data, select: SELECT });
      if (Object.keys(changes).length) {
        await recordEvent(tx, { action: "webhook.updated", resourceType: "webhook", resourceId: id, changes, actor: context.actor, request: context.request }, now);
      }
      return after;
    }),
  );
  return serialize(row);
}

/** Removes an endpoint with its deliveries and their log. */
export async function removeEndpoint(id: string, context: ChangeContext): Promise<void> {
  const now = new Date();
  await write(() =>
    db.$transaction(async (tx) => {
      const before = await existing(tx, id);
      await tx.webhookEndpoint.delete({ where: { id } });
      await recordEvent(
        tx,
        { action: "webhook.deleted", resourceType: "webhook", resourceId: id, changes: { url: { from: before.url, to: null } }, actor: context.actor, request: context.request },
        now,
      );
    }),
  );
}

/**
 * A new secret; the old one keeps signing beside it for ROTATION_OVERLAP_MS, so receivers can
 * switch without missing a delivery. Returns the endpoint with its new secret.
 */
export async function rotateSecret(id: string, context: ChangeContext): Promise<WebhookRecord & { secret: string }> {
  const now = new Date();
  const secret = generateSecret();
  const row = await write(() =>
    db.$transaction(async (tx) => {
      const current = await tx.webhookEndpoint.findUnique({ where: { id }, select: { secret: true } });
      if (!current) throw notFound(id);
      const previousExpiresAt = new Date(now.getTime() + ROTATION_OVERLAP_MS);
      const after = await tx.webhookEndpoint.update({
        where: { id },
        data: { secret, previousSecret: current.secret, previousExpiresAt, updatedAt: now },
        select: SELECT,
      });
      // The secrets themselves are never recorded.
      await recordEvent(
        tx,
        {
          action: "webhook.secret_rotated",
          resourceType: "webhook",
          resourceId: id,
          changes: { previousSecretExpiresAt: { from: null, to: previousExpiresAt.toISOString() } },
          actor: context.actor,
          request: context.request,
        },
        now,
      );
      return after;
    }),
  );
  return { ...serialize(row), secret };
}

/** Queues a webhook.test event for this endpoint alone, enabled or not. Returns its event id. */
export async function sendTest(id: string, context: ChangeContext): Promise<string> {
  const now = new Date();
  return write(() =>
    db.$transaction(async (tx) => {
      const endpoint = await existing(tx, id);
      const messageId = await enqueueEvent(
        tx,
        { type: TEST_EVENT_TYPE, data: { webhook: { id: endpoint.id, url: endpoint.url }, message: "A test event: your endpoint receives and verifies webhooks." } },
        now,
        [id],
      );
      await recordEvent(tx, { action: "webhook.tested", resourceType: "webhook", resourceId: id, changes: {}, actor: context.actor, request: context.request }, now);
      return messageId as string;
    }),
  );
}
