import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { Webhook } from "standardwebhooks";
import { scriptArgs, serverArgs } from "../../lib/server-command";
import { CLAIM_BATCH, type PassReport } from "../../lib/webhooks/dispatch";
import { FAN_OUT_BATCH } from "../../lib/webhooks/fan-out";
import { dispatchersStarted, dispatchersWaiting, freePort, logLines, runCli, startApp, type TestApp } from "../support/app";
import { dataset } from "../support/dataset";
import { eventually } from "../support/eventually";
import { childrenOf, isDispatcher, nicenessOf } from "../support/processes";
import { type Received, type Receiver, startReceiver } from "../support/receiver";
import { sql, storedTime } from "../support/sql";

// Webhook delivery end to end: the built app sends to a real receiver in this process, every
// delivery verified with the `standardwebhooks` package (a Standard Webhooks implementation
// written by others). Retries, timeouts, rotation, a kill -9 between the PUT and the send, two
// processes sharing the work, the address check at delivery, the cron route and the command line.

const root = path.resolve(import.meta.dirname, "..", "..");
const run = promisify(execFile);
/** Endpoints point at this process, so the app may send to loopback and http. */
const LOCAL = { WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_ALLOW_HTTP: "true" };
/** Short enough for a test, long enough to tell the attempts apart. */
const FAST = { WEBHOOK_RETRY_DELAYS_MS: "300,300,300", WEBHOOK_TIMEOUT_MS: "1000", WEBHOOK_POLL_MS: "100" };
const ALL_EVENTS = "comment.updated,comment.pinned,comment.unpinned";

interface Endpoint {
  id: string;
  secret: string;
}

/** Creates, rotates, disables or tests an endpoint through lib/webhooks/endpoints.ts, in a process of its own. */
async function admin<T = Endpoint>(app: TestApp, ...args: string[]): Promise<T> {
  const { stdout } = await run(process.execPath, [...scriptArgs("tests/support/webhook-admin.ts"), ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: app.databaseUrl, ...LOCAL, ...FAST },
  });
  return JSON.parse(stdout) as T;
}

const form = (fields: Record<string, string>) => ({
  method: "PUT",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});

async function put(app: TestApp, commentId: string, fields: Record<string, string>) {
  const answer = await app.json(`/api/v1/comments/${commentId}`, form(fields));
  assert.equal(answer.status, 200, JSON.stringify(answer.body));
  return answer.body.data;
}

interface EventBody {
  type: string;
  timestamp: string;
  data: { comment: { commentDescription: string }; changes: unknown; actor: { keyId: string; name: string; via: string } };
}

/** The delivery's body, verified with the secret (throws when the signature does not match). */
const verified = (secret: string, request: Received) => new Webhook(secret).verify(request.body, request.headers) as EventBody;

const attemptsOf = (app: TestApp, messageId: string) =>
  sql<{ statusCode: number | null; durationMs: number; error: string | null; responseBody: string | null; status: string; attempts: number }>(
    app.databaseUrl,
    `SELECT a."statusCode", a."durationMs", a."error", a."responseBody", d."status", d."attempts"
     FROM "WebhookAttempt" a JOIN "WebhookDelivery" d ON d."id" = a."deliveryId"
     WHERE d."messageId" = ? ORDER BY a."id"`,
    [messageId],
  );

let receiver: Receiver;
before(async () => {
  receiver = await startReceiver();
});
after(async () => {
  await receiver?.close();
});

describe("delivery by the server's dispatcher", () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dataset, env: { ...LOCAL, ...FAST } });
  });
  after(async () => {
    // Never a signing secret in the logs.
    assert.doesNotMatch(app?.output() ?? "", /whsec_/);
    await app?.stop();
  });

  it("sends one signed event per kind of change, in the documented shape, with the API's comment record", async () => {
    const endpoint: Endpoint = await admin(app, "create", `${receiver.url}/all`, ALL_EVENTS);
    const edited = await put(app, "c-first", { commentDescription: "Webhooks at last" });
    const [first] = await receiver.waitFor("/all", 1);
    assert.ok(first);
    assert.equal(first.headers["content-type"], "application/json");
    assert.match(first.headers["user-agent"] ?? "", /^feedback-service-webhooks\//);
    assert.match(first.headers["webhook-id"] ?? "", /^msg_/);
    const event = verified(endpoint.secret, first);
    assert.deepEqual(Object.keys(event), ["type", "timestamp", "data"]);
    assert.equal(event.type, "comment.updated");
    assert.ok(Math.abs(Date.parse(event.timestamp) - Date.parse(edited.updatedAt)) < 1000);
    assert.deepEqual(event.data.comment, edited, "the comment as the PUT answered it");
    assert.deepEqual(event.data.changes, { commentDescription: { from: "Yes please, my eyes hurt.", to: "Webhooks at last" } });
    assert.equal(event.data.actor.name, "test-write");
    assert.equal(event.data.actor.via, "api");
    assert.match(event.data.actor.keyId, /\S/);

    // Text and pin in one PUT: two events; then an unpin: a third.
    const both = await put(app, "c-first", { commentDescription: "And pinned", pinComment: "true" });
    await put(app, "c-first", { pinComment: "false" });
    const all = await receiver.waitFor("/all", 4);
    const events = all.slice(1).map((r) => verified(endpoint.secret, r));
    assert.deepEqual(events.map((e) => e.type).sort(), ["comment.pinned", "comment.unpinned", "comment.updated"]);
    const pinned = events.find((e) => e.type === "comment.pinned");
    assert.ok(pinned);
    assert.deepEqual(pinned.data.changes, { pinned: { from: false, to: true } });
    assert.deepEqual(pinned.data.comment, both);
    assert.equal(new Set(all.map((r) => r.headers["webhook-id"])).size, 4, "each event its own webhook-id");

    // A save that changes nothing sends nothing.
    await put(app, "c-first", { pinComment: "false" });
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(receiver.at("/all").length, 4);

    const [row] = await sql<{ status: string; attempts: number }>(
      app.databaseUrl,
      `SELECT "status", "attempts" FROM "WebhookDelivery" WHERE "messageId" = ?`,
      [first.headers["webhook-id"]],
    );
    assert.deepEqual({ ...row }, { status: "delivered", attempts: 1 });
    await admin(app, "disable", endpoint.id);
  });

  it("sends one event to each of ten subscribed endpoints, written in the PUT's one statement on PostgreSQL, with one webhook-id", async () => {
    const now = storedTime(app.databaseUrl, new Date());
    const ids = Array.from({ length: 10 }, (_, i) => `whk_many_${String(i).padStart(2, "0")}`);
    for (const id of ids) {
      await sql(
        app.databaseUrl,
        `INSERT INTO "WebhookEndpoint" ("id", "url", "description", "events", "enabled", "secret", "createdAt", "updatedAt")
         VALUES (?, ?, 'many', 'comment.updated', TRUE, ?, ?, ?)`,
        [id, `${receiver.url}/many/${id}`, `whsec_${Buffer.from(id.padEnd(32, "x")).toString("base64")}`, now, now],
      );
    }
    await put(app, "c-later", { commentDescription: "To every endpoint" });
    for (const id of ids) await receiver.waitFor(`/many/${id}`, 1);
    const requests = ids.map((id) => receiver.at(`/many/${id}`)[0]);
    assert.equal(new Set(requests.map((r) => r?.headers["webhook-id"])).size, 1, "one event, so one webhook-id");
    const rows = await sql<{ id: string; endpointId: string }>(
      app.databaseUrl,
      `SELECT "id", "endpointId" FROM "WebhookDelivery" WHERE "messageId" = ? ORDER BY "endpointId"`,
      [requests[0]?.headers["webhook-id"]],
    );
    assert.deepEqual(rows.map((r) => r.endpointId), ids);
    assert.equal(new Set(rows.map((r) => r.id)).size, 10, "a delivery id each");
    assert.ok(rows.every((r) => /^dlv_[0-9a-z]{25}$/.test(r.id)), "sortable delivery ids");
    await sql(app.databaseUrl, `UPDATE "WebhookEndpoint" SET "enabled" = FALSE WHERE "id" LIKE 'whk_many_%'`);
  });

  it("retries a receiver that answers 500 twice: three attempts, one webhook-id, every attempt recorded", async () => {
    receiver.on("/flaky", (attempt) => (attempt <= 2 ? 500 : 200));
    const endpoint: Endpoint = await admin(app, "create", `${receiver.url}/flaky`, "comment.updated");
    await put(app, "c-later", { commentDescription: "Try, try again" });
    const requests = await receiver.waitFor("/flaky", 3);
    const ids = new Set(requests.map((r) => r.headers["webhook-id"]));
    assert.equal(ids.size, 1, "the same webhook-id on every retry");
    for (const request of requests) assert.equal(verified(endpoint.secret, request).data.comment.commentDescription, "Try, try again");
    // The schedule (300 ms, +-20%) separates the attempts.
    for (let i = 1; i < requests.length; i++) {
      const gap = (requests[i]?.at ?? 0) - (requests[i - 1]?.at ?? 0);
      assert.ok(gap >= 200, `attempt ${i + 1} came ${gap} ms after the one before`);
    }
    const messageId = [...ids][0] as string;
    const attempts = await eventually(async () => {
      const rows = await attemptsOf(app, messageId);
      return rows.length === 3 && rows[0]?.status === "delivered" ? rows : undefined;
    }, "three recorded attempts");
    assert.deepEqual(
      attempts.map((a) => [a.statusCode, a.error, a.responseBody]),
      [
        [500, null, "no (500)"],
        [500, null, "no (500)"],
        [200, null, "ok"],
      ],
    );
    assert.equal(attempts[0]?.attempts, 3);
    assert.ok(attempts.every((a) => a.durationMs >= 0));
    const [state] = await sql<{ failingSince: string | null }>(app.databaseUrl, `SELECT "failingSince" FROM "WebhookEndpoint" WHERE "id" = ?`, [
      endpoint.id,
    ]);
    assert.equal(state?.failingSince, null, "a success ends the failing streak");
    await admin(app, "disable", endpoint.id);
  });

  it("cuts a receiver that hangs at the timeout, and retries it", async () => {
    receiver.on("/hang", (attempt) => (attempt === 1 ? "hang" : 200));
    const endpoint: Endpoint = await admin(app, "create", `${receiver.url}/hang`, "comment.updated");
    await put(app, "c-csv", { commentDescription: "Are you there?" });
    const requests = await receiver.waitFor("/hang", 2);
    assert.equal(requests[0]?.headers["webhook-id"], requests[1]?.headers["webhook-id"]);
    const gap = (requests[1]?.at ?? 0) - (requests[0]?.at ?? 0);
    assert.ok(gap >= 1000 + 200, `the retry came ${gap} ms after the hung attempt: timeout plus the schedule`);
    const attempts = await eventually(async () => {
      const rows = await attemptsOf(app, requests[0]?.headers["webhook-id"] as string);
      return rows.length === 2 && rows[0]?.status === "delivered" ? rows : undefined;
    }, "two recorded attempts");
    assert.equal(attempts[0]?.statusCode, null);
    assert.equal(attempts[0]?.error, "timed out after 1000 ms");
    assert.ok((attempts[0]?.durationMs ?? 0) >= 990 && (attempts[0]?.durationMs ?? 0) < 3000, `${attempts[0]?.durationMs} ms`);
    assert.equal(attempts[1]?.statusCode, 200);
    await admin(app, "disable", endpoint.id);
  });

  it("signs with both secrets while a rotation overlaps, and either verifies", async () => {
    const endpoint: Endpoint = await admin(app, "create", `${receiver.url}/rotated`, "comment.pinned");
    const rotated: Endpoint = await admin(app, "rotate", endpoint.id);
    assert.notEqual(rotated.secret, endpoint.secret);
    await put(app, "c-pinned", { pinComment: "false" });
    await put(app, "c-pinned", { pinComment: "true" });
    const [request] = await receiver.waitFor("/rotated", 1);
    assert.ok(request);
    assert.equal(request.headers["webhook-signature"]?.split(" ").length, 2);
    assert.equal(verified(rotated.secret, request).type, "comment.pinned");
    assert.equal(verified(endpoint.secret, request).type, "comment.pinned");
    assert.throws(() => verified(`whsec_${Buffer.alloc(32, 7).toString("base64")}`, request), "a third secret does not verify");
    await admin(app, "disable", endpoint.id);
  });

  it("sends a test event to its one endpoint", async () => {
    const endpoint: Endpoint = await admin(app, "create", `${receiver.url}/tested`, "comment.unpinned");
    const { messageId } = await admin<{ messageId: string }>(app, "test", endpoint.id);
    const [request] = await receiver.waitFor("/tested", 1);
    assert.ok(request);
    assert.equal(request.headers["webhook-id"], messageId);
    assert.equal(verified(endpoint.secret, request).type, "webhook.test");
    await admin(app, "disable", endpoint.id);
  });

  it("disables an endpoint that has failed every delivery for 3 days, with an audit event by the service itself", async () => {
    receiver.on("/down", () => 503);
    const endpoint: Endpoint = await admin(app, "create", `${receiver.url}/down`, "comment.updated");
    const fourDaysAgo = new Date(Date.now() - 4 * 86_400_000);
    await sql(app.databaseUrl, `UPDATE "WebhookEndpoint" SET "failingSince" = ? WHERE "id" = ?`, [storedTime(app.databaseUrl, fourDaysAgo), endpoint.id]);
    await put(app, "c-later", { commentDescription: "Anyone?" });
    await receiver.waitFor("/down", 1);
    const disabled = await eventually(async () => {
      const [row] = await sql<{ enabled: unknown; disabledReason: string | null }>(
        app.databaseUrl,
        `SELECT "enabled", "disabledReason" FROM "WebhookEndpoint" WHERE "id" = ?`,
        [endpoint.id],
      );
      return row && !row.enabled ? row : undefined;
    }, "the endpoint to be disabled");
    assert.equal(disabled.disabledReason, "failing");
    const events = await sql<{ action: string; via: string; actorKeyId: string | null; changes: string }>(
      app.databaseUrl,
      `SELECT "action", "via", "actorKeyId", "changes" FROM "AuditEvent" WHERE "resourceId" = ? AND "action" = 'webhook.disabled'`,
      [endpoint.id],
    );
    assert.equal(events.length, 1);
    assert.equal(events[0]?.via, "system");
    assert.equal(events[0]?.actorKeyId, null);
    assert.deepEqual(JSON.parse(events[0]?.changes ?? "{}"), { enabled: { from: true, to: false }, disabledReason: { from: null, to: "failing" } });
    // Disabled, it is sent nothing more.
    await new Promise((r) => setTimeout(r, 1200));
    const sent = receiver.at("/down").length;
    await put(app, "c-later", { commentDescription: "Still there?" });
    await new Promise((r) => setTimeout(r, 600));
    assert.equal(receiver.at("/down").length, sent);
  });
});

describe("the dispatcher process", () => {
  let app: TestApp;
  before(async () => {
    // Polls an hour apart: an event that arrives within seconds came by a nudge.
    app = await startApp({ dataset, env: { ...LOCAL, WEBHOOK_POLL_MS: "3600000" } });
  });
  after(async () => {
    await app?.stop();
  });

  it("runs beside the server at a lower CPU priority, is nudged by a change instead of waiting for its poll, and ends with the server", async () => {
    // The server logs each dispatcher once its priority is set; a look at /proc before that
    // could catch it at the server's own.
    const dispatcher = await eventually(async () => dispatchersStarted(app)[0], "the dispatcher process");
    assert.deepEqual(childrenOf(app.server.pid ?? 0).filter(isDispatcher), [dispatcher]);
    assert.equal(nicenessOf(dispatcher), 10);

    // The endpoint comes after the dispatcher's first pass, which was its last for an hour.
    await eventually(async () => dispatchersWaiting(app).includes(dispatcher), "the dispatcher's first pass");
    await admin(app, "create", `${receiver.url}/nudged`, "comment.updated");
    await put(app, "c-first", { commentDescription: "Sent at once" });
    const [delivery] = await receiver.waitFor("/nudged", 1, 10_000);
    assert.match(delivery?.body ?? "", /Sent at once/);

    // A dispatcher that dies is started again, and the next change reaches the new one.
    process.kill(dispatcher, "SIGKILL");
    const replacement = await eventually(async () => dispatchersStarted(app)[1], "a new dispatcher process");
    assert.match(app.output(), /The webhook dispatcher exited unexpectedly; starting another/);
    assert.deepEqual(childrenOf(app.server.pid ?? 0).filter(isDispatcher), [replacement]);
    assert.equal(nicenessOf(replacement), 10);
    // Once it has made its first pass, its next is an hour away and only a nudge sends this at once.
    await eventually(async () => dispatchersWaiting(app).includes(replacement), "the new dispatcher's first pass");
    await put(app, "c-first", { commentDescription: "Sent to the new one" });
    const [again] = (await receiver.waitFor("/nudged", 2, 10_000)).slice(1);
    assert.match(again?.body ?? "", /Sent to the new one/);

    // A kill -9 leaves no dispatcher behind: its channel to the server closes, and it ends.
    app.server.kill("SIGKILL");
    await eventually(async () => !fs.existsSync(`/proc/${replacement}`), "the dispatcher to end after its server");
  });

  /** Starts a server that cannot start, and returns the dispatcher it started once the server has ended. */
  const failedStart = async (env: Record<string, string>) => {
    let output = "";
    const failed = spawn(process.execPath, serverArgs(root), {
      cwd: root,
      env: { ...process.env, ...LOCAL, DATABASE_URL: app.databaseUrl, NODE_ENV: "production", HOSTNAME: "127.0.0.1", LOG_FORMAT: "json", ...env },
      stdio: ["ignore", "pipe", "pipe"],
    });
    failed.stdout?.on("data", (d) => (output += d));
    failed.stderr?.on("data", (d) => (output += d));
    const code = await new Promise<number | null>((resolve) => failed.once("exit", (exitCode) => resolve(exitCode)));
    assert.equal(code, 1, output);
    // Its last line may still be on its way when the exit is seen.
    await eventually(async () => /The server could not (listen|start)/.test(output), "the failed server's last line");
    const started = logLines(output, "The webhook dispatcher started");
    assert.equal(started.length, 1, output);
    return { output, dispatcher: Number(started[0]?.pid) };
  };

  it("ends, with no dispatcher left behind, when its port is taken", { timeout: 60_000 }, async () => {
    const taken = net.createServer();
    await new Promise<void>((resolve) => taken.listen(0, "127.0.0.1", resolve));
    try {
      const { output, dispatcher } = await failedStart({ PORT: String((taken.address() as net.AddressInfo).port) });
      assert.match(output, /The server could not listen on 127\.0\.0\.1:\d+: listen EADDRINUSE/);
      await eventually(async () => !fs.existsSync(`/proc/${dispatcher}`), "the dispatcher to end with its server");
    } finally {
      taken.close();
    }
  });

  it("leaves no dispatcher behind when the server ends while the dispatcher is still loading (no build)", { timeout: 60_000 }, async () => {
    // The dispatcher starts first; the server then fails at once, before the dispatcher listens to its channel.
    const { output, dispatcher } = await failedStart({ PORT: String(await freePort()), NEXT_DIST_DIR: ".next-no-such-build" });
    assert.match(output, /The server could not start: Could not find a production build/);
    await eventually(async () => !fs.existsSync(`/proc/${dispatcher}`), "the dispatcher to end after its server");
  });
});

describe("delivery held back: the cron route, the command line, and a kill -9", () => {
  const CRON_SECRET = "a-cron-secret-of-some-length-0123456789";
  let held: TestApp;
  let restarted: TestApp | undefined;
  let endpoint: Endpoint;
  before(async () => {
    held = await startApp({ dataset, env: { ...LOCAL, ...FAST, WEBHOOK_DISPATCH: "false", CRON_SECRET } });
    endpoint = await admin(held, "create", `${receiver.url}/held`, ALL_EVENTS);
  });
  after(async () => {
    await restarted?.stop();
    await held?.stop();
  });

  it("POST /api/cron/webhooks refuses without the secret or with a wrong one, and runs one pass with it", async () => {
    await put(held, "c-first", { commentDescription: "By cron" });
    await new Promise((r) => setTimeout(r, 500));
    assert.equal(receiver.at("/held").length, 0, "WEBHOOK_DISPATCH=false sends nothing by itself");

    const missing = await held.json("/api/cron/webhooks", { method: "POST", key: null });
    assert.equal(missing.status, 401);
    assert.equal(missing.body.error.code, "unauthorized");
    assert.match(missing.headers.get("www-authenticate") ?? "", /^Bearer/);
    const apiKey = await held.json("/api/cron/webhooks", { method: "POST" });
    assert.equal(apiKey.status, 403, "an API key is not the cron secret");
    const wrong = await held.json("/api/cron/webhooks", { method: "POST", key: `${CRON_SECRET}x` });
    assert.equal(wrong.status, 403);
    assert.equal(wrong.body.error.code, "forbidden");
    assert.equal(receiver.at("/held").length, 0);

    const ran = await held.json("/api/cron/webhooks", { method: "POST", key: CRON_SECRET });
    assert.equal(ran.status, 200, JSON.stringify(ran.body));
    assert.equal(ran.body.data.attempted, 1);
    assert.equal(ran.body.data.delivered, 1);
    assert.equal(ran.body.data.deliveries[0].type, "comment.updated");
    assert.equal(ran.body.data.deliveries[0].statusCode, 200);
    const [request] = receiver.at("/held");
    assert.ok(request);
    assert.equal(verified(endpoint.secret, request).data.comment.commentDescription, "By cron");
    assert.equal(ran.body.data.deliveries[0].messageId, request.headers["webhook-id"]);

    const again = await held.json("/api/cron/webhooks", { method: "POST", key: CRON_SECRET });
    assert.equal(again.body.data.attempted, 0, "nothing is due twice");
  });

  it("`feedback webhooks deliver --once` sends what is due and prints it", async () => {
    await put(held, "c-later", { pinComment: "true" });
    const result = await runCli(held.databaseUrl, ["webhooks", "deliver", "--once"], LOCAL);
    assert.equal(result.code, 0, result.stderr);
    const lines = result.stdout.trim().split("\n");
    assert.equal(lines.length, 1, result.stdout);
    assert.match(lines[0] ?? "", /^delivered {2}comment\.pinned {2}msg_\S+ {2}endpoint whk_\S+ {2}attempt 1 {2}HTTP 200 {2}\d+ ms$/);
    const requests = receiver.at("/held");
    assert.equal(requests.length, 2);
    assert.equal(verified(endpoint.secret, requests[1] as Received).type, "comment.pinned");

    const idle = await runCli(held.databaseUrl, ["webhooks", "deliver", "--once"], LOCAL);
    assert.equal(idle.code, 0);
    assert.equal(idle.stdout, "");
    assert.match(idle.stderr, /Nothing was due/);
    const usage = await runCli(held.databaseUrl, ["webhooks", "send"], LOCAL);
    assert.equal(usage.code, 1);
  });

  it(`\`--once\` sends a backlog larger than one claim (${CLAIM_BATCH}) in one run`, async () => {
    const backlog = CLAIM_BATCH + 13;
    const before = receiver.at("/held").length;
    for (let i = 0; i < backlog; i++) await put(held, "c-first", { commentDescription: `Backlog ${i}` });
    const result = await runCli(held.databaseUrl, ["webhooks", "deliver", "--once"], LOCAL);
    assert.equal(result.code, 0, result.stderr);
    assert.equal(result.stdout.trim().split("\n").filter((line) => line.startsWith("delivered")).length, backlog, result.stdout);
    const sent = receiver.at("/held").slice(before);
    assert.equal(sent.length, backlog);
    assert.equal(new Set(sent.map((r) => r.headers["webhook-id"])).size, backlog, "one delivery per event");
    const texts = sent.map((r) => verified(endpoint.secret, r).data.comment.commentDescription).sort();
    assert.deepEqual(texts, Array.from({ length: backlog }, (_, i) => `Backlog ${i}`).sort());
  });

  it("a change names every subscribed endpoint, and a dispatcher gives a delivery to those that still exist", async () => {
    const kept = await admin(held, "create", `${receiver.url}/held-kept`, "comment.updated");
    const removed = await admin(held, "create", `${receiver.url}/held-removed`, "comment.updated");
    try {
      await put(held, "c-first", { commentDescription: "Two more endpoints, one removed" });
      const waiting = await sql<{ fanOut: string }>(held.databaseUrl, `SELECT "fanOut" FROM "WebhookMessage" WHERE "fanOut" > ''`);
      assert.deepEqual(
        waiting.map((event) => event.fanOut.split(",").sort()),
        [[endpoint.id, kept.id, removed.id].sort()],
      );
      const gone = await runCli(held.databaseUrl, ["webhooks", "remove", removed.id], LOCAL);
      assert.equal(gone.code, 0, gone.stderr);
      const ran = await held.json("/api/cron/webhooks", { method: "POST", key: CRON_SECRET });
      assert.equal(ran.status, 200, JSON.stringify(ran.body));
      assert.deepEqual(
        (ran.body.data.deliveries as { endpointId: string; outcome: string }[]).map((d) => [d.endpointId, d.outcome]).sort(),
        [
          [endpoint.id, "delivered"],
          [kept.id, "delivered"],
        ].sort(),
      );
      assert.equal(receiver.at("/held-kept").length, 1);
      assert.equal(receiver.at("/held-removed").length, 0);
      assert.deepEqual(await sql(held.databaseUrl, `SELECT "id" FROM "WebhookMessage" WHERE "fanOut" > ''`), [], "no event waits any more");
    } finally {
      await runCli(held.databaseUrl, ["webhooks", "remove", kept.id], LOCAL);
    }
  });

  it(`a pass goes on while events wait, even when a fan-out of ${FAN_OUT_BATCH} gave none of them a delivery`, async () => {
    const cli = async (...args: string[]) => {
      const result = await runCli(held.databaseUrl, ["webhooks", ...args], LOCAL);
      assert.equal(result.code, 0, result.stderr);
      return result;
    };
    await cli("disable", endpoint.id);
    let later: Endpoint | undefined;
    try {
      // A full batch of events for an endpoint removed before any dispatcher ran, then one for
      // an endpoint made after them. Both engines hand the first batch out in the order the
      // waiting index (or the table) holds them: the removed endpoint's id, older, sorts first.
      const removed = await admin(held, "create", `${receiver.url}/held-removed`, "comment.updated");
      for (let i = 0; i < FAN_OUT_BATCH; i++) await put(held, "c-first", { commentDescription: `For a removed endpoint ${i}` });
      await cli("remove", removed.id);
      const made = await admin(held, "create", `${receiver.url}/held-late`, "comment.updated");
      later = made;
      await put(held, "c-first", { commentDescription: "For an endpoint made later" });

      const pass = await cli("deliver", "--once");
      assert.deepEqual(
        pass.stdout
          .trim()
          .split("\n")
          .map((line) => line.split("  ")[0]),
        ["delivered"],
      );
      const [request] = receiver.at("/held-late");
      assert.equal(verified(made.secret, request as Received).data.comment.commentDescription, "For an endpoint made later");
      assert.deepEqual(await sql(held.databaseUrl, `SELECT "id" FROM "WebhookMessage" WHERE "fanOut" > ''`), [], "no event waits any more");
    } finally {
      if (later) await cli("remove", later.id);
      await cli("enable", endpoint.id);
    }
  });

  it("a claim takes due retries first, then leases new events' deliveries in the room left; the rest, and a disabled endpoint's, wait unleased", async () => {
    const cli = async (...args: string[]) => {
      const result = await runCli(held.databaseUrl, ["webhooks", ...args], LOCAL);
      assert.equal(result.code, 0, result.stderr);
    };
    const pass = (limit: number) => admin<PassReport>(held, "pass", String(limit));
    /** The event's deliveries never tried and not leased. */
    const unleased = (messageId: string) =>
      sql<{ endpointId: string }>(
        held.databaseUrl,
        `SELECT "endpointId" FROM "WebhookDelivery"
         WHERE "messageId" = ? AND "status" = 'pending' AND "attempts" = 0 AND "lockedUntil" IS NULL ORDER BY "endpointId"`,
        [messageId],
      );
    const sent = (report: PassReport) => report.deliveries.map((d) => [d.endpointId, d.messageId, d.attempt, d.outcome]).sort();
    // Fails the first event's first attempt only.
    let failing: string | undefined;
    receiver.on("/held-flaky", (attempt, request) => {
      failing ??= request.headers["webhook-id"];
      return attempt === 1 && request.headers["webhook-id"] === failing ? 500 : 200;
    });
    const flaky = await admin(held, "create", `${receiver.url}/held-flaky`, "comment.updated");
    const steady = await admin(held, "create", `${receiver.url}/held-steady`, "comment.updated");
    const heldBefore = receiver.at("/held").length;
    try {
      await put(held, "c-first", { commentDescription: "First of two" });
      const [first] = await sql<{ id: string }>(held.databaseUrl, `SELECT "id" FROM "WebhookMessage" WHERE "fanOut" > ''`);
      assert.ok(first);
      // Disabled after the change named it, before a dispatcher gave the event its deliveries.
      await cli("disable", endpoint.id);
      const one = await pass(2);
      assert.deepEqual(sent(one), [
        [flaky.id, first.id, 1, "retrying"],
        [steady.id, first.id, 1, "delivered"],
      ].sort());
      assert.deepEqual(await unleased(first.id), [{ endpointId: endpoint.id }], "the disabled endpoint's delivery was made, and waits unleased");

      // A second event, older than the moment the flaky endpoint's retry comes due: ordered by
      // due time alone, its deliveries would go first.
      await put(held, "c-first", { commentDescription: "Second of two" });
      const [second] = await sql<{ id: string }>(held.databaseUrl, `SELECT "id" FROM "WebhookMessage" WHERE "fanOut" > ''`);
      assert.ok(second);
      const due = new Date(Date.now() + 200);
      await sql(held.databaseUrl, `UPDATE "WebhookDelivery" SET "nextAttemptAt" = ? WHERE "endpointId" = ? AND "status" = 'pending'`, [
        storedTime(held.databaseUrl, due),
        flaky.id,
      ]);
      await new Promise((r) => setTimeout(r, due.getTime() - Date.now() + 50));
      const retry = await pass(1);
      assert.deepEqual(sent(retry), [[flaky.id, first.id, 2, "delivered"]], "the due retry first, though the new event is older than its due time");
      assert.deepEqual(
        (await unleased(second.id)).map((d) => d.endpointId),
        [flaky.id, steady.id].sort(),
        "the new event's deliveries were made without room, so none was leased",
      );

      assert.deepEqual(sent(await pass(10)), [
        [flaky.id, second.id, 1, "delivered"],
        [steady.id, second.id, 1, "delivered"],
      ].sort());
      assert.equal(receiver.at("/held").length, heldBefore, "nothing goes to a disabled endpoint");
      await cli("enable", endpoint.id);
      assert.deepEqual(sent(await pass(10)), [[endpoint.id, first.id, 1, "delivered"]], "once enabled, its delivery goes at once: no lease held it");
      assert.equal(receiver.at("/held").length, heldBefore + 1);
    } finally {
      await cli("enable", endpoint.id);
      await cli("remove", flaky.id);
      await cli("remove", steady.id);
    }
  });

  it("a delivery leased by a sender that died is not sent until the lease runs out, then it is", async () => {
    const cron = () => held.json("/api/cron/webhooks", { method: "POST", key: CRON_SECRET });
    const before = receiver.at("/held").length;
    await put(held, "c-first", { commentDescription: "Leased" });
    // As a dispatcher leaves it when its process dies mid-send: the event given its delivery
    // (lib/webhooks/fan-out.ts) and the delivery leased, in the claim's one transaction.
    const leaseEnds = new Date(Date.now() + 1500);
    const [waiting] = await sql<{ id: string; createdAt: unknown }>(held.databaseUrl, `SELECT "id", "createdAt" FROM "WebhookMessage" WHERE "fanOut" = ?`, [
      endpoint.id,
    ]);
    assert.ok(waiting, "the change wrote its event, naming the endpoint");
    await sql(
      held.databaseUrl,
      `INSERT INTO "WebhookDelivery" ("id", "endpointId", "messageId", "status", "attempts", "nextAttemptAt", "lockedUntil", "createdAt", "updatedAt")
       VALUES ('dlv_leased', ?, ?, 'pending', 0, ?, ?, ?, ?)`,
      [endpoint.id, waiting.id, waiting.createdAt, storedTime(held.databaseUrl, leaseEnds), waiting.createdAt, waiting.createdAt],
    );
    await sql(held.databaseUrl, `UPDATE "WebhookMessage" SET "fanOut" = NULL WHERE "id" = ?`, [waiting.id]);
    assert.equal((await cron()).body.data.attempted, 0, "another sender holds it");
    await new Promise((r) => setTimeout(r, leaseEnds.getTime() - Date.now() + 50));
    const taken = await cron();
    assert.equal(taken.body.data.delivered, 1);
    const requests = receiver.at("/held");
    assert.equal(requests.length, before + 1);
    assert.equal(verified(endpoint.secret, requests[before] as Received).data.comment.commentDescription, "Leased");
  });

  it("an event acknowledged just before a kill -9 arrives once the server runs again", async () => {
    const before = receiver.at("/held").length;
    const edited = await put(held, "c-csv", { commentDescription: "Survives a crash" });
    held.server.kill("SIGKILL");
    await new Promise((resolve) => (held.server.exitCode === null && held.server.signalCode === null ? held.server.once("exit", resolve) : resolve(null)));
    assert.equal(receiver.at("/held").length, before, "nothing was sent before the kill");
    restarted = await startApp({ sameDatabaseAs: held, env: { ...LOCAL, ...FAST } });
    const requests = await receiver.waitFor("/held", before + 1);
    const event = verified(endpoint.secret, requests[before] as Received);
    assert.equal(event.type, "comment.updated");
    assert.deepEqual(event.data.comment, edited);
  });
});

describe("two server processes dispatching at once", () => {
  let first: TestApp;
  let second: TestApp;
  before(async () => {
    first = await startApp({ dataset, env: { ...LOCAL, ...FAST } });
    second = await startApp({ sameDatabaseAs: first, env: { ...LOCAL, ...FAST } });
    // Each server's dispatcher starts beside it and takes a second or more to load: until both
    // wait for changes, one may send everything.
    await eventually(async () => dispatchersWaiting(first).length && dispatchersWaiting(second).length, "both dispatchers to be ready");
  });
  after(async () => {
    await second?.stop();
    await first?.stop();
  });

  it("deliver each of many events exactly once between them", async () => {
    const endpoint: Endpoint = await admin(first, "create", `${receiver.url}/shared`, "comment.updated");
    const EVENTS = 40;
    const comments = ["c-first", "c-later", "c-csv", "c-pinned"];
    // Both processes take writes, so each is nudged; both also poll.
    await Promise.all(
      comments.map(async (comment, c) => {
        for (let i = 0; i < EVENTS / comments.length; i++) {
          await put(i % 2 ? second : first, comment, { commentDescription: `shared ${c} ${i}` });
        }
      }),
    );
    const requests = await receiver.waitFor("/shared", EVENTS, 30_000);
    // Anything sent twice would arrive within a poll or two.
    await new Promise((r) => setTimeout(r, 1000));
    const all = receiver.at("/shared");
    const ids = all.map((r) => r.headers["webhook-id"]);
    assert.equal(all.length, EVENTS, "no event was sent twice");
    assert.equal(new Set(ids).size, EVENTS);
    const texts = requests.map((r) => verified(endpoint.secret, r).data.comment.commentDescription).sort();
    const expected = comments.flatMap((_, c) => Array.from({ length: EVENTS / comments.length }, (_, i) => `shared ${c} ${i}`)).sort();
    assert.deepEqual(texts, expected);
    const [counts] = await sql<{ deliveries: number; attempts: number }>(
      first.databaseUrl,
      `SELECT (SELECT COUNT(*) FROM "WebhookDelivery" WHERE "endpointId" = ? AND "status" = 'delivered') AS "deliveries",
              (SELECT COUNT(*) FROM "WebhookAttempt" a JOIN "WebhookDelivery" d ON d."id" = a."deliveryId" WHERE d."endpointId" = ?) AS "attempts"`,
      [endpoint.id, endpoint.id],
    );
    assert.deepEqual([Number(counts?.deliveries), Number(counts?.attempts)], [EVENTS, EVENTS]);
    const sentBy = (app: TestApp) => app.output().split("\n").filter((l) => l.includes('"webhook delivered"')).length;
    assert.equal(sentBy(first) + sentBy(second), EVENTS);
    assert.ok(sentBy(first) > 0 && sentBy(second) > 0, `both processes sent some (${sentBy(first)} and ${sentBy(second)})`);
  });
});

describe("the address check at delivery", () => {
  let strict: TestApp;
  before(async () => {
    // Made while private addresses were allowed; this server does not allow them.
    strict = await startApp({ dataset, env: { WEBHOOK_ALLOW_HTTP: "true", WEBHOOK_RETRY_DELAYS_MS: "60000", WEBHOOK_POLL_MS: "100" } });
  });
  after(async () => {
    await strict?.stop();
  });

  it("refuses a loopback address, literal or by name, with a clear error and no connection", async () => {
    const port = new URL(receiver.url).port;
    const literal: Endpoint = await admin(strict, "create", `${receiver.url}/private`, "comment.updated");
    const named: Endpoint = await admin(strict, "create", `http://localhost:${port}/private`, "comment.updated");
    await put(strict, "c-first", { commentDescription: "Not for you" });
    const rows = await eventually(async () => {
      const found = await sql<{ endpointId: string; statusCode: number | null; error: string | null; status: string; nextAttemptAt: unknown }>(
        strict.databaseUrl,
        `SELECT d."endpointId", a."statusCode", a."error", d."status", d."nextAttemptAt" FROM "WebhookAttempt" a
         JOIN "WebhookDelivery" d ON d."id" = a."deliveryId" ORDER BY d."endpointId"`,
      );
      return found.length === 2 ? found : undefined;
    }, "two refused attempts");
    const byEndpoint = Object.fromEntries(rows.map((r) => [r.endpointId, r]));
    assert.equal(byEndpoint[literal.id]?.statusCode, null);
    assert.match(byEndpoint[literal.id]?.error ?? "", /^refused: 127\.0\.0\.1 is a loopback address; webhooks go only to public addresses/);
    assert.equal(byEndpoint[named.id]?.statusCode, null);
    assert.match(byEndpoint[named.id]?.error ?? "", /^refused: localhost resolves to (127\.0\.0\.1|::1), which is a loopback address/);
    for (const row of rows) assert.equal(row.status, "pending", "a refusal is a failed attempt, retried on the schedule");
    assert.equal(receiver.at("/private").length, 0, "no connection was made");
  });
});
