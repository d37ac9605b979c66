import "server-only";
import { recordEvent, systemActor } from "../audit/record";
import { Prisma, read, type Statements, transact, write } from "../db";
import { dialect } from "../dialect";
import { env } from "../env";
import { sortableId } from "../ids";
import { log, logError } from "../log";
import { rowType } from "../rows";
import { addressPolicy } from "./endpoints";
import { TEST_EVENT_TYPE } from "./events";
import { type Claimed, FAN_OUT_BATCH, fanOut } from "./fan-out";
import { groupCommit } from "./group-commit";
import { DISABLE_AFTER_MS, retryDelay } from "./schedule";
import { postWebhook, type SendResult } from "./send";
import { webhookHeaders } from "./sign";
import { type Target, targetOf } from "./target";

// The dispatcher: gives new events their deliveries (lib/webhooks/fan-out.ts), claims due
// deliveries, POSTs each, records every attempt and schedules the next. A claim is a lease
// (lockedUntil), taken by one statement that also returns the rows: on PostgreSQL its SELECT
// skips rows another process holds, so several processes share the work and never send one
// delivery at the same time; on SQLite the one writer runs the statement alone. A process that
// dies mid-send leaves its lease to run out, and the delivery is taken again: at-least-once.
// The server (lib/webhooks/dispatcher.ts), `feedback webhooks deliver`, the cron route and the
// comment PUT's after() all run passes of this.

/** Deliveries sent at once by one pass. */
export const CONCURRENCY = 8;
/**
 * Deliveries one claim takes, at most: a claim is a write (on SQLite, under the one write lock
 * the requests need), so a backlog, or a busy stream of changes, is taken in few of them.
 */
export const CLAIM_BATCH = 100;
/** A pass stops after this many deliveries, so a backlog never holds one caller forever. */
const PASS_LIMIT = 1000;

export type Outcome = "delivered" | "retrying" | "failed";

export interface DeliveryReport {
  deliveryId: string;
  messageId: string;
  endpointId: string;
  type: string;
  /** Which attempt this was, from 1. */
  attempt: number;
  outcome: Outcome;
  statusCode: number | null;
  durationMs: number;
  error: string | null;
  /** When a retrying delivery is due again. */
  nextAttemptAt: string | null;
}

export interface PassReport {
  deliveries: DeliveryReport[];
  /** Endpoints this pass disabled because every delivery failed for 3 days. */
  disabled: string[];
}

export interface PassOptions {
  /** Only the deliveries of these events (the comment PUT's after()). */
  messageIds?: string[];
  limit?: number;
  /** Asked before each claim: true ends the pass (the server is shutting down). */
  stopping?: () => boolean;
}

/**
 * The dispatcher's own writes (a lease, a record of attempts) need not wait for the disk: if a
 * crash of the database server loses one, the delivery is sent again, which at-least-once
 * delivery allows and its webhook-id lets a receiver recognise.
 */
const LEASE_OR_RECORD = { durable: false } as const;

/**
 * How long a claim holds: longer than the last of a claim's deliveries can wait for a sender
 * and take itself, with room for recording it.
 */
const leaseMs = () => env().WEBHOOK_TIMEOUT_MS * (Math.ceil(CLAIM_BATCH / CONCURRENCY) + 1) + 30_000;

/**
 * Leases up to `limit` due deliveries of enabled endpoints (a test event goes to its endpoint
 * enabled or not), of these events only when ids are given.
 */
async function leaseDue(tx: Statements, now: Date, lease: Date, limit: number, messageIds: readonly string[] | undefined): Promise<Claimed[]> {
  const onlyThese = messageIds ? Prisma.sql` AND d."messageId" IN (${Prisma.join(messageIds)})` : Prisma.empty;
  return tx.$queryRaw<Claimed[]>`
    UPDATE "WebhookDelivery" SET "lockedUntil" = ${lease}
    WHERE "id" IN (
      SELECT d."id" FROM "WebhookDelivery" d
      WHERE d."status" = 'pending' AND d."nextAttemptAt" <= ${now}
        AND (d."lockedUntil" IS NULL OR d."lockedUntil" <= ${now})${onlyThese}
        AND EXISTS (
          SELECT 1 FROM "WebhookEndpoint" e WHERE e."id" = d."endpointId" AND (e."enabled" = TRUE
            OR EXISTS (SELECT 1 FROM "WebhookMessage" m WHERE m."id" = d."messageId" AND m."type" = ${TEST_EVENT_TYPE})))
      ORDER BY d."nextAttemptAt", d."id"
      LIMIT ${limit}${dialect.skipLocked})
    RETURNING "id", "endpointId", "messageId", "attempts"`;
}

/**
 * Takes up to `limit` deliveries and leases them, in one transaction: due ones first, so a
 * retry is not held back by a stream of new events, then new events' (lib/webhooks/fan-out.ts),
 * made already leased in the room left. Deliveries of a disabled endpoint wait, pending, until
 * it is enabled again. With ids (the comment PUT's after(), just after its change committed),
 * the events' own deliveries: those of an event still waiting cannot exist yet, so the due
 * ones are looked for only among the others, which usually leaves none to look among. `more`:
 * events may still wait for their deliveries.
 */
async function claim(limit: number, messageIds: string[] | undefined): Promise<{ claimed: Claimed[]; more: boolean }> {
  const now = new Date();
  const lease = new Date(now.getTime() + leaseMs());
  return write(() =>
    transact(async (tx) => {
      if (messageIds) {
        const fanned = await fanOut(tx, { messageIds, lease, room: limit });
        const given = new Set(fanned.events);
        const others = messageIds.filter((id) => !given.has(id));
        const room = limit - fanned.leased.length;
        const due = others.length && room > 0 ? await leaseDue(tx, now, lease, room, others) : [];
        return { claimed: [...fanned.leased, ...due], more: fanned.events.length === FAN_OUT_BATCH };
      }
      const due = await leaseDue(tx, now, lease, limit, undefined);
      const fanned = await fanOut(tx, { lease, room: limit - due.length });
      return { claimed: [...due, ...fanned.leased], more: fanned.events.length === FAN_OUT_BATCH };
    }, LEASE_OR_RECORD),
  );
}

const targetRow = rowType<{
  id: string;
  url: string;
  secret: string;
  previousSecret: string | null;
  previousExpiresAt: Date | null;
  type: string;
  payload: string;
}>({ previousExpiresAt: "time" });

/** Each of these claimed deliveries' endpoint (URL, the secrets signing now) and message. */
async function targets(ids: string[]): Promise<Map<string, Target>> {
  if (!ids.length) return new Map();
  const rows = await read(
    Prisma.sql`
      SELECT d."id", e."url", e."secret", e."previousSecret", e."previousExpiresAt", m."type", m."payload"
      FROM "WebhookDelivery" d
      JOIN "WebhookEndpoint" e ON e."id" = d."endpointId"
      JOIN "WebhookMessage" m ON m."id" = d."messageId"
      WHERE d."id" IN (${Prisma.join(ids)})`,
    targetRow,
    { lookup: true },
  );
  const now = new Date();
  return new Map(rows.map((row) => [row.id, targetOf(row, row, now)]));
}

async function send(delivery: Claimed, target: Target): Promise<SendResult & { at: Date }> {
  const config = env();
  const at = new Date();
  let url: URL;
  try {
    url = new URL(target.url);
  } catch {
    return { at, statusCode: null, durationMs: 0, responseBody: null, error: "the endpoint's URL is not a URL" };
  }
  const headers = webhookHeaders(target.secrets, delivery.messageId, at, target.payload);
  const result = await postWebhook(url, headers, target.payload, { timeoutMs: config.WEBHOOK_TIMEOUT_MS, policy: addressPolicy() });
  return { ...result, at };
}

/** A failure starts the endpoint's failing streak, and disables it once the streak is old enough. */
async function noteFailure(tx: Statements, endpointId: string, now: Date): Promise<boolean> {
  await tx.$executeRaw`UPDATE "WebhookEndpoint" SET "failingSince" = ${now} WHERE "id" = ${endpointId} AND "failingSince" IS NULL`;
  const cutoff = new Date(now.getTime() - DISABLE_AFTER_MS);
  const disabled = await tx.$queryRaw<{ id: string }[]>`
    UPDATE "WebhookEndpoint" SET "enabled" = FALSE, "disabledReason" = 'failing', "updatedAt" = ${now}
    WHERE "id" = ${endpointId} AND "enabled" = TRUE AND "failingSince" <= ${cutoff}
    RETURNING "id"`;
  if (!disabled.length) return false;
  await recordEvent(
    tx,
    {
      action: "webhook.disabled",
      resourceType: "webhook",
      resourceId: endpointId,
      changes: { enabled: { from: true, to: false }, disabledReason: { from: null, to: "failing" } },
      actor: systemActor("webhook dispatcher"),
    },
    now,
  );
  return true;
}

interface Sent {
  delivery: Claimed;
  type: string;
  result: SendResult & { at: Date };
}

interface Recorded {
  report: DeliveryReport;
  disabled: boolean;
}

const isSuccess = (result: SendResult) => result.statusCode !== null && result.statusCode >= 200 && result.statusCode < 300;

/**
 * Records attempts and their consequences in one transaction: delivered (and the endpoint's
 * failing streak over), or due again on the schedule, or failed once the schedule is used up.
 * Successes, the common case, take three statements however many there are. Answers each sent
 * delivery's record in the batch's order: undefined for one that is gone (its endpoint was
 * removed meanwhile).
 */
async function recordAll(batch: Sent[]): Promise<(Recorded | undefined)[]> {
  const now = new Date();
  const delays = env().WEBHOOK_RETRY_DELAYS_MS;
  const succeeded = batch.filter((s) => isSuccess(s.result));
  const failed = batch.filter((s) => !isSuccess(s.result));
  return write(() =>
    transact(async (tx) => {
      const recorded = new Map<string, Recorded>();
      const kept: Sent[] = [];
      const report = ({ delivery, type, result }: Sent, outcome: Outcome, next: Date | null): DeliveryReport => ({
        deliveryId: delivery.id,
        messageId: delivery.messageId,
        endpointId: delivery.endpointId,
        type,
        attempt: delivery.attempts + 1,
        outcome,
        statusCode: result.statusCode,
        durationMs: result.durationMs,
        error: result.error,
        nextAttemptAt: next?.toISOString() ?? null,
      });
      if (succeeded.length) {
        const still = await tx.$queryRaw<{ id: string }[]>`
          UPDATE "WebhookDelivery" SET "status" = 'delivered', "attempts" = "attempts" + 1, "lockedUntil" = NULL, "updatedAt" = ${now}
          WHERE "id" IN (${Prisma.join(succeeded.map((s) => s.delivery.id))})
          RETURNING "id"`;
        const ids = new Set(still.map((r) => r.id));
        for (const sent of succeeded.filter((s) => ids.has(s.delivery.id))) {
          kept.push(sent);
          recorded.set(sent.delivery.id, { report: report(sent, "delivered", null), disabled: false });
        }
        const endpoints = [...new Set(succeeded.map((s) => s.delivery.endpointId))];
        await tx.$executeRaw`
          UPDATE "WebhookEndpoint" SET "failingSince" = NULL WHERE "id" IN (${Prisma.join(endpoints)}) AND "failingSince" IS NOT NULL`;
      }
      for (const sent of failed) {
        const attempt = sent.delivery.attempts + 1;
        const delay = retryDelay(attempt, delays);
        const next = delay === null ? null : new Date(now.getTime() + delay);
        const updated = await tx.$executeRaw`
          UPDATE "WebhookDelivery"
          SET "status" = ${next ? "pending" : "failed"}, "attempts" = ${attempt}, "lockedUntil" = NULL,
            "updatedAt" = ${now}${next ? Prisma.sql`, "nextAttemptAt" = ${next}` : Prisma.empty}
          WHERE "id" = ${sent.delivery.id}`;
        if (!updated) continue;
        kept.push(sent);
        const disabled = await noteFailure(tx, sent.delivery.endpointId, now);
        recorded.set(sent.delivery.id, { report: report(sent, next ? "retrying" : "failed", next), disabled });
      }
      if (kept.length) {
        const rows = kept.map(
          ({ delivery, result }) =>
            Prisma.sql`(${sortableId("att", result.at)}, ${delivery.id}, ${result.at}, ${result.statusCode}, ${result.durationMs}, ${result.responseBody}, ${result.error})`,
        );
        await tx.$executeRaw`
          INSERT INTO "WebhookAttempt" ("id", "deliveryId", "attemptedAt", "statusCode", "durationMs", "responseBody", "error")
          VALUES ${Prisma.join(rows)}`;
      }
      return batch.map((sent) => recorded.get(sent.delivery.id));
    }, LEASE_OR_RECORD),
  );
}

/**
 * The longest a finished send waits to be recorded while its pass goes on sending: a busy pass
 * writes one record per window (lib/webhooks/group-commit.ts).
 */
const RECORD_WINDOW_MS = 50;

/** Waits for a sent delivery's record, then reports and logs what happened. */
async function recordAndReport(sent: Sent, record: (sent: Sent) => Promise<Recorded | undefined>, report: PassReport): Promise<void> {
  const { delivery, type } = sent;
  try {
    const recorded = await record(sent);
    if (!recorded) return;
    report.deliveries.push(recorded.report);
    if (recorded.disabled) report.disabled.push(delivery.endpointId);
    const { outcome, statusCode, error, attempt } = recorded.report;
    log(outcome === "delivered" ? "info" : "warn", `webhook ${outcome}`, {
      deliveryId: delivery.id,
      messageId: delivery.messageId,
      endpointId: delivery.endpointId,
      type,
      attempt,
      status: statusCode,
      error,
    });
    if (recorded.disabled) log("warn", "webhook endpoint disabled: every delivery failed for 3 days", { endpointId: delivery.endpointId });
  } catch (error) {
    // Its lease runs out and a later pass sends it again.
    logError(`Recording webhook delivery ${delivery.id} failed`, error);
  }
}

/**
 * One pass: claims due deliveries, CLAIM_BATCH at a time, and sends them, CONCURRENCY at a
 * time, until none is due, `limit` were taken, or `stopping()` says so. Returns what it sent.
 */
export async function dispatchPass(options: PassOptions = {}): Promise<PassReport> {
  const report: PassReport = { deliveries: [], disabled: [] };
  if (options.messageIds?.length === 0) return report;
  const limit = options.limit ?? PASS_LIMIT;
  const records = groupCommit(recordAll, RECORD_WINDOW_MS);
  const recording: Promise<void>[] = [];
  const queue: [Claimed, Target | undefined][] = [];
  let taken = 0;
  let exhausted = false;
  let claiming: Promise<void> | undefined;

  // Senders take from one queue; when it runs dry, one claim refills it for all of them. A
  // sender stuck on a slow endpoint holds up only itself.
  const next = async (): Promise<[Claimed, Target | undefined] | undefined> => {
    while (!queue.length && !exhausted) {
      if (taken >= limit || options.stopping?.()) {
        exhausted = true;
        break;
      }
      claiming ??= (async () => {
        const asked = Math.min(CLAIM_BATCH, limit - taken);
        const { claimed, more } = await claim(asked, options.messageIds);
        taken += claimed.length;
        // Fewer than asked, and no more events waiting for their deliveries: nothing more was
        // due. What comes due meanwhile comes with a nudge, or waits for the next poll, instead
        // of costing every pass a claim that finds nothing.
        if (claimed.length < asked && !more) exhausted = true;
        const found = await targets(claimed.filter((c) => !c.target).map((c) => c.id));
        for (const delivery of claimed) queue.push([delivery, delivery.target ?? found.get(delivery.id)]);
      })().finally(() => {
        claiming = undefined;
      });
      await claiming;
    }
    return queue.shift();
  };

  // A sender goes on to its next delivery while the last one waits for its record.
  const sender = async () => {
    for (let item = await next(); item; item = await next()) {
      const [delivery, target] = item;
      if (!target) continue;
      let result: Sent["result"];
      try {
        result = await send(delivery, target);
      } catch (error) {
        // Its lease runs out and a later pass sends it again.
        logError(`Sending webhook delivery ${delivery.id} failed`, error);
        continue;
      }
      recording.push(recordAndReport({ delivery, type: target.type, result }, records.add, report));
    }
  };
  try {
    await Promise.all(Array.from({ length: CONCURRENCY }, sender));
  } finally {
    // Also when a claim failed: what was sent is recorded before the pass ends.
    records.drain();
    await Promise.all(recording);
  }
  return report;
}
