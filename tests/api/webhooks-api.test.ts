import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { runCli, startApp, type TestApp } from "../support/app";
import { dataset } from "../support/dataset";
import { sql, storedTime } from "../support/sql";

// The webhook endpoints' API and management commands, over real HTTP against the real database:
// the admin scope, every change audited once, validation and address refusals as 400s naming
// the field, the delivery log by cursor, and redeliveries and replays that send the same
// webhook-id again. (Sending itself is the dispatcher's, tested with it.)

let app: TestApp;
let admin: string;
const HOOK = "http://127.0.0.1:9/hook";
// Deliveries here go to a local address over http, which only these flags allow.
const PERMISSIVE = { WEBHOOK_ALLOW_HTTP: "true", WEBHOOK_ALLOW_PRIVATE: "true" };
const cli = (args: string[]) => runCli(app.databaseUrl, ["webhooks", ...args], PERMISSIVE);

before(async () => {
  // The server's dispatcher stays off: these tests write delivery logs of their own and read
  // them back, and a send to HOOK (nothing listens) would add attempts between the two.
  // Delivery has its own tests (webhooks-delivery.test.ts).
  app = await startApp({ dataset, env: { ...PERMISSIVE, WEBHOOK_DISPATCH: "false" } });
  const created = await app.cli(["keys", "create", "--name", "webhook-admin", "--scopes", "read,write,admin"]);
  assert.equal(created.code, 0, created.stderr);
  admin = created.stdout.trim();
});
after(async () => {
  await app?.stop();
});

const api = (path: string, init: Omit<RequestInit, "body"> & { key?: string | null; body?: unknown } = {}) => {
  const { body, ...rest } = init;
  return app.json(`/api/v1${path}`, {
    key: admin,
    ...rest,
    ...(body === undefined
      ? {}
      : { body: typeof body === "string" ? body : JSON.stringify(body), headers: { "content-type": "application/json" } }),
  });
};

interface AuditRow {
  id: string;
  action: string;
  resourceId: string | null;
  changes: string;
  via: string;
  actorKeyId: string | null;
}
const auditRows = () => sql<AuditRow>(app.databaseUrl, `SELECT * FROM "AuditEvent" WHERE "resourceType" = 'webhook' ORDER BY "id"`);

/** Runs a change and returns the webhook audit events it added. */
async function eventsOf(change: () => Promise<unknown>): Promise<AuditRow[]> {
  const before = new Set((await auditRows()).map((e) => e.id));
  await change();
  return (await auditRows()).filter((e) => !before.has(e.id));
}

async function createHook(body: Record<string, unknown> = {}) {
  const res = await api("/webhooks", { method: "POST", body: { url: HOOK, events: ["comment.pinned"], ...body } });
  assert.equal(res.status, 201, JSON.stringify(res.body));
  return res.body.data as { id: string; secret: string; url: string; events: string[] };
}

describe("the admin scope", () => {
  for (const [name, key, status] of [
    ["no key", null, 401],
    ["a read key", "read", 403],
    ["a read,write key", "write", 403],
  ] as const) {
    it(`refuses ${name} on every webhook endpoint`, async () => {
      const k = key === null ? null : app.keys[key];
      for (const [method, path] of [
        ["GET", "/webhooks"],
        ["POST", "/webhooks"],
        ["GET", "/webhooks/whk_x"],
        ["PATCH", "/webhooks/whk_x"],
        ["DELETE", "/webhooks/whk_x"],
        ["POST", "/webhooks/whk_x/rotate-secret"],
        ["POST", "/webhooks/whk_x/test"],
        ["GET", "/webhooks/whk_x/deliveries"],
        ["POST", "/webhooks/whk_x/deliveries/dlv_x/redeliver"],
        ["POST", "/webhooks/whk_x/replay?since=2026-01-01T00:00:00Z"],
      ]) {
        const res = await api(path as string, {
          method,
          key: k,
          body: method === "POST" || method === "PATCH" ? { url: HOOK, events: ["comment.pinned"] } : undefined,
        });
        assert.equal(res.status, status, `${method} ${path}`);
        assert.equal(res.body.error.code, status === 401 ? "unauthorized" : "forbidden");
      }
      assert.equal((await sql(app.databaseUrl, `SELECT "id" FROM "WebhookEndpoint"`)).length, 0);
    });
  }
});

describe("managing an endpoint", () => {
  it("takes the dashboard's session from its own origin only, as every session write", async () => {
    const signIn = await app.request("/api/session", {
      method: "POST",
      key: null,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key: admin }),
    });
    assert.equal(signIn.status, 200);
    const cookie = (signIn.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    const post = (origin: string) =>
      app.json("/api/v1/webhooks", {
        method: "POST",
        key: null,
        headers: { cookie, origin, "content-type": "application/json" },
        body: JSON.stringify({ url: `${HOOK}/session`, events: ["comment.pinned"] }),
      });
    const crossSite = await post("https://evil.example");
    assert.equal(crossSite.status, 403);
    assert.equal(crossSite.body.error.code, "forbidden");
    assert.equal((await sql(app.databaseUrl, `SELECT "id" FROM "WebhookEndpoint" WHERE "url" = ?`, [`${HOOK}/session`])).length, 0);
    const sameSite = await post(app.url);
    assert.equal(sameSite.status, 201, JSON.stringify(sameSite.body));
    const [event] = (await auditRows()).filter((e) => e.resourceId === sameSite.body.data.id);
    assert.equal(event?.via, "dashboard");
  });

  it("creates one with 201, shows its secret that once, and audits it", async () => {
    let created!: Awaited<ReturnType<typeof createHook>>;
    const events = await eventsOf(async () => {
      created = await createHook({
        events: ["comment.updated", "comment.pinned,comment.unpinned", "comment.updated"],
        description: "  CRM sync  ",
      });
    });
    assert.match(created.secret, /^whsec_[A-Za-z0-9+/]{43}=$/);
    assert.deepEqual(created.events, ["comment.updated", "comment.pinned", "comment.unpinned"]);
    assert.equal((created as unknown as { description: string }).description, "CRM sync");
    const [stored] = await sql<{ secret: string }>(app.databaseUrl, `SELECT "secret" FROM "WebhookEndpoint" WHERE "id" = ?`, [created.id]);
    assert.equal(stored?.secret, created.secret);
    assert.deepEqual(
      events.map((e) => [e.action, e.resourceId, e.actorKeyId !== null, e.via]),
      [["webhook.created", created.id, true, "api"]],
    );
    assert.ok(!events[0]?.changes.includes("whsec_"), "the audit trail never holds a secret");

    const one = await api(`/webhooks/${created.id}`);
    assert.equal(one.status, 200);
    assert.equal(one.body.data.secret, undefined);
    assert.equal(one.body.data.enabled, true);
    const list = await api("/webhooks");
    assert.equal(list.status, 200);
    assert.equal(list.body.nextCursor, null);
    const listed = list.body.data.find((w: { id: string }) => w.id === created.id);
    assert.deepEqual(listed, one.body.data);
    assert.ok(!JSON.stringify(list.body).includes("whsec_"));
  });

  it("changes url, events, description and enabled, one audit event per change", async () => {
    const hook = await createHook();
    const events = await eventsOf(async () => {
      const patched = await api(`/webhooks/${hook.id}`, {
        method: "PATCH",
        body: { url: "http://127.0.0.1:9/other", events: ["comment.unpinned"], description: "x" },
      });
      assert.equal(patched.status, 200, JSON.stringify(patched.body));
      assert.equal(patched.body.data.url, "http://127.0.0.1:9/other");
      assert.deepEqual(patched.body.data.events, ["comment.unpinned"]);
      const disabled = await api(`/webhooks/${hook.id}`, { method: "PATCH", body: { enabled: false } });
      assert.equal(disabled.body.data.enabled, false);
      assert.equal(disabled.body.data.disabledReason, "manual");
      const enabled = await api(`/webhooks/${hook.id}`, { method: "PATCH", body: { enabled: true } });
      assert.equal(enabled.body.data.enabled, true);
      assert.equal(enabled.body.data.disabledReason, null);
    });
    assert.deepEqual(
      events.map((e) => [e.action, Object.keys(JSON.parse(e.changes)).sort()]),
      [
        ["webhook.updated", ["description", "events", "url"]],
        ["webhook.updated", ["enabled"]],
        ["webhook.updated", ["enabled"]],
      ],
    );
  });

  it("rotates the secret: a new one, once, the old one signing for 24 hours more", async () => {
    const hook = await createHook();
    let rotated: { secret: string; previousSecretExpiresAt: string } | undefined;
    const events = await eventsOf(async () => {
      const res = await api(`/webhooks/${hook.id}/rotate-secret`, { method: "POST" });
      assert.equal(res.status, 200);
      rotated = res.body.data;
    });
    assert.match(rotated?.secret ?? "", /^whsec_/);
    assert.notEqual(rotated?.secret, hook.secret);
    const hours = (Date.parse(rotated?.previousSecretExpiresAt ?? "") - Date.now()) / 3_600_000;
    assert.ok(hours > 23.9 && hours <= 24, `${hours} hours`);
    const [row] = await sql<{ secret: string; previousSecret: string }>(app.databaseUrl, `SELECT * FROM "WebhookEndpoint" WHERE "id" = ?`, [
      hook.id,
    ]);
    assert.deepEqual([row?.secret, row?.previousSecret], [rotated?.secret, hook.secret]);
    assert.deepEqual(
      events.map((e) => e.action),
      ["webhook.secret_rotated"],
    );
    assert.ok(!events[0]?.changes.includes("whsec_"));
  });

  it("removes one with 204 and its deliveries, audited", async () => {
    const hook = await createHook();
    assert.equal((await api(`/webhooks/${hook.id}/test`, { method: "POST" })).status, 202);
    const events = await eventsOf(async () => {
      const res = await app.request(`/api/v1/webhooks/${hook.id}`, { method: "DELETE", key: admin });
      assert.equal(res.status, 204);
      assert.equal(await res.text(), "");
    });
    assert.deepEqual(
      events.map((e) => [e.action, e.resourceId]),
      [["webhook.deleted", hook.id]],
    );
    assert.equal((await api(`/webhooks/${hook.id}`)).status, 404);
    assert.equal((await sql(app.databaseUrl, `SELECT "id" FROM "WebhookDelivery" WHERE "endpointId" = ?`, [hook.id])).length, 0);
  });

  it("answers 404 naming the id for an unknown endpoint or delivery, changing nothing", async () => {
    const hook = await createHook();
    const cases: [string, string, unknown?][] = [
      ["GET", "/webhooks/whk_nope"],
      ["PATCH", "/webhooks/whk_nope", { enabled: false }],
      ["DELETE", "/webhooks/whk_nope"],
      ["POST", "/webhooks/whk_nope/rotate-secret"],
      ["POST", "/webhooks/whk_nope/test"],
      ["GET", "/webhooks/whk_nope/deliveries"],
      ["POST", "/webhooks/whk_nope/replay?since=2026-01-01T00:00:00Z"],
      ["POST", `/webhooks/whk_nope/deliveries/dlv_nope/redeliver`],
      ["POST", `/webhooks/${hook.id}/deliveries/dlv_nope/redeliver`],
    ];
    const events = await eventsOf(async () => {
      for (const [method, path, body] of cases) {
        const res = await api(path, { method, body });
        assert.equal(res.status, 404, `${method} ${path}`);
        assert.equal(res.body.error.code, "not_found");
        assert.match(res.body.error.message, /nope/);
      }
    });
    assert.equal(events.length, 0);
  });
});

describe("validation", () => {
  const bad: [string, unknown, string, RegExp?][] = [
    ["no url", { events: ["comment.pinned"] }, "url"],
    ["an empty url", { url: " ", events: ["comment.pinned"] }, "url"],
    ["a url that is not one", { url: "not a url", events: ["comment.pinned"] }, "url", /not a URL/],
    ["an ftp url", { url: "ftp://example.com/x", events: ["comment.pinned"] }, "url", /http/],
    ["credentials in the url", { url: "http://user:pw@127.0.0.1/x", events: ["comment.pinned"] }, "url", /user name or password/],
    ["no events", { url: HOOK }, "events"],
    ["an empty list of events", { url: HOOK, events: [] }, "events", /at least one/],
    ["an unknown event type", { url: HOOK, events: ["comment.pinned", "comment.deleted"] }, "events", /"comment\.deleted" is not an event type; must be among comment\.updated, comment\.pinned/],
    ["events as a number", { url: HOOK, events: 3 }, "events"],
    ["a description too long", { url: HOOK, events: ["comment.pinned"], description: "x".repeat(501) }, "description"],
    ["a NUL in the description", { url: HOOK, events: ["comment.pinned"], description: "a\u0000b" }, "description"],
    ["a body that is not JSON", "{", "body"],
  ];
  for (const [name, body, field, message] of bad) {
    it(`refuses ${name} with a 400 naming ${field}`, async () => {
      const res = await api("/webhooks", { method: "POST", body });
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.equal(res.body.error.code, "invalid_request");
      const detail = res.body.error.details.find((d: { field: string }) => d.field === field);
      assert.ok(detail, JSON.stringify(res.body.error.details));
      if (message) assert.match(detail.message, message);
    });
  }

  it("refuses a change with no fields, a bad enabled or an unknown event type, changing nothing", async () => {
    const hook = await createHook();
    for (const [body, field] of [
      [{}, "body"],
      [{ enabled: "yes" }, "enabled"],
      [{ events: ["nope"] }, "events"],
      [{ url: "ftp://x" }, "url"],
    ] as const) {
      const res = await api(`/webhooks/${hook.id}`, { method: "PATCH", body });
      assert.equal(res.status, 400, JSON.stringify(body));
      assert.equal(res.body.error.details[0].field, field);
    }
    const now = await api(`/webhooks/${hook.id}`);
    assert.deepEqual([now.body.data.url, now.body.data.events, now.body.data.enabled], [HOOK, ["comment.pinned"], true]);
  });

  it("refuses a replay without since, or with one that is not a time", async () => {
    const hook = await createHook();
    for (const query of ["", "?since=", "?since=yesterday", "?since=2026-13-01T00:00:00Z", "?since=2026-01-01"]) {
      const res = await api(`/webhooks/${hook.id}/replay${query}`, { method: "POST" });
      assert.equal(res.status, 400, query);
      assert.equal(res.body.error.details[0].field, "since");
    }
  });

  it("refuses a text body with 415, and a GET-only path's other methods with 405", async () => {
    const res = await app.json("/api/v1/webhooks", { method: "POST", key: admin, headers: { "content-type": "text/plain" }, body: "x" });
    assert.equal(res.status, 415);
    const put = await app.json("/api/v1/webhooks/whk_x/deliveries", { method: "PUT", key: admin });
    assert.equal(put.status, 405);
    assert.match(put.headers.get("allow") ?? "", /GET/);
  });
});

interface DeliveryRecord {
  id: string;
  eventId: string;
  type: string;
  status: string;
  attempts: number;
  nextAttemptAt: string | null;
  log: { attemptedAt: string; statusCode: number | null; durationMs: number; responseBody: string | null; error: string | null }[];
}

describe("the delivery log", () => {
  it("lists test deliveries newest first, a page at a time by cursor, with each attempt", async () => {
    const hook = await createHook();
    const eventIds: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await api(`/webhooks/${hook.id}/test`, { method: "POST" });
      assert.equal(res.status, 202);
      assert.match(res.body.data.eventId, /^msg_/);
      eventIds.push(res.body.data.eventId);
    }
    // An attempt as the dispatcher writes one, so the log's shape is read from the real table.
    const [oldest] = await sql<{ id: string }>(app.databaseUrl, `SELECT "id" FROM "WebhookDelivery" WHERE "messageId" = ?`, [eventIds[0]]);
    const at = new Date("2026-03-04T05:06:07.000Z");
    await sql(app.databaseUrl, `UPDATE "WebhookDelivery" SET "status" = 'failed', "attempts" = 1 WHERE "id" = ?`, [oldest?.id]);
    await sql(
      app.databaseUrl,
      `INSERT INTO "WebhookAttempt" ("id", "deliveryId", "attemptedAt", "statusCode", "durationMs", "responseBody", "error") VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ["att_1", oldest?.id, storedTime(app.databaseUrl, at), 500, 42, "oops", "HTTP 500"],
    );

    const seen: DeliveryRecord[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page = await api(`/webhooks/${hook.id}/deliveries?limit=2${cursor ? `&cursor=${cursor}` : ""}`);
      assert.equal(page.status, 200, JSON.stringify(page.body));
      assert.ok(page.body.data.length <= 2);
      seen.push(...page.body.data);
      cursor = page.body.nextCursor;
      pages++;
    } while (cursor);
    assert.equal(pages, 3);
    assert.deepEqual(
      seen.map((d) => d.eventId),
      [...eventIds].reverse(),
    );
    assert.ok(seen.every((d) => d.type === "webhook.test"));
    const last = seen.at(-1);
    assert.deepEqual([last?.status, last?.attempts, last?.nextAttemptAt], ["failed", 1, null]);
    assert.deepEqual(last?.log, [
      { attemptedAt: at.toISOString(), statusCode: 500, durationMs: 42, responseBody: "oops", error: "HTTP 500" },
    ]);
    const newest = seen[0];
    assert.equal(newest?.status, "pending");
    assert.ok(newest?.nextAttemptAt);
  });

  it("refuses a cursor it did not give", async () => {
    const hook = await createHook();
    for (const cursor of ["nope", Buffer.from("evt_0mh2k9x1a000abcdefghijklm").toString("base64url")]) {
      const res = await api(`/webhooks/${hook.id}/deliveries?cursor=${cursor}`);
      assert.equal(res.status, 400);
      assert.equal(res.body.error.details[0].field, "cursor");
    }
    const res = await api(`/webhooks/${hook.id}/deliveries?limit=101`);
    assert.equal(res.body.error.details[0].field, "limit");
  });

  it("redelivers an event as a new pending delivery with the same webhook-id, leaving the first as it was", async () => {
    const hook = await createHook();
    const { body } = await api(`/webhooks/${hook.id}/test`, { method: "POST" });
    const eventId = body.data.eventId as string;
    const [first] = (await api(`/webhooks/${hook.id}/deliveries`)).body.data as DeliveryRecord[];
    await sql(app.databaseUrl, `UPDATE "WebhookDelivery" SET "status" = 'delivered', "attempts" = 1 WHERE "id" = ?`, [first?.id]);

    let again: DeliveryRecord | undefined;
    const events = await eventsOf(async () => {
      const res = await api(`/webhooks/${hook.id}/deliveries/${first?.id}/redeliver`, { method: "POST" });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      again = res.body.data;
    });
    assert.equal(again?.eventId, eventId);
    assert.notEqual(again?.id, first?.id);
    assert.deepEqual([again?.status, again?.attempts, again?.log], ["pending", 0, []]);
    const list = (await api(`/webhooks/${hook.id}/deliveries`)).body.data as DeliveryRecord[];
    assert.deepEqual(
      list.map((d) => [d.id, d.eventId, d.status]),
      [
        [again?.id, eventId, "pending"],
        [first?.id, eventId, "delivered"],
      ],
    );
    assert.deepEqual(
      events.map((e) => [e.action, JSON.parse(e.changes)]),
      [["webhook.redelivered", { deliveryId: first?.id, eventId }]],
    );

    // Another endpoint's delivery is not this one's to send.
    const other = await createHook();
    const res = await api(`/webhooks/${other.id}/deliveries/${first?.id}/redeliver`, { method: "POST" });
    assert.equal(res.status, 404);
  });

  it("replays every event of the endpoint since a time, once each, with their webhook-ids", async () => {
    const hook = await createHook({ events: ["comment.pinned", "comment.unpinned"] });
    const bystander = await createHook({ events: ["comment.updated"] });
    const since = new Date(Date.now() - 1000);
    for (const pin of [false, true, false]) {
      const res = await app.json("/api/v1/comments/c-pinned", {
        method: "PUT",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ pinComment: pin }),
      });
      assert.equal(res.status, 200);
    }
    // A change writes its event alone, and a dispatcher's pass gives it its deliveries: until
    // one runs (here the command line's, whose sends to HOOK fail and are left pending, to be
    // tried again), the endpoint's log has none.
    assert.deepEqual((await api(`/webhooks/${hook.id}/deliveries`)).body.data, []);
    const pass = await cli(["deliver", "--once"]);
    assert.equal(pass.code, 0, pass.stderr);
    const sent = (await api(`/webhooks/${hook.id}/deliveries`)).body.data as DeliveryRecord[];
    assert.deepEqual(
      sent.map((d) => d.type),
      ["comment.unpinned", "comment.pinned", "comment.unpinned"],
    );
    const [pinned] = await sql<{ payload: string }>(app.databaseUrl, `SELECT "payload" FROM "WebhookMessage" WHERE "id" = ?`, [
      sent[1]?.eventId,
    ]);
    const payload = JSON.parse(pinned?.payload ?? "{}");
    assert.equal(payload.type, "comment.pinned");
    assert.deepEqual(payload.data.changes, { pinned: { from: false, to: true } });
    assert.equal(payload.data.comment.id, "c-pinned");

    // Pending deliveries are on their way already: a replay skips them.
    const early = await api(`/webhooks/${hook.id}/replay?since=${since.toISOString()}`, { method: "POST" });
    assert.equal(early.status, 202);
    assert.equal(early.body.data.count, 0);

    await sql(app.databaseUrl, `UPDATE "WebhookDelivery" SET "status" = 'delivered' WHERE "endpointId" = ?`, [hook.id]);
    // A redelivered event is still one event.
    await api(`/webhooks/${hook.id}/deliveries/${sent[0]?.id}/redeliver`, { method: "POST" });
    await sql(app.databaseUrl, `UPDATE "WebhookDelivery" SET "status" = 'failed' WHERE "endpointId" = ? AND "status" = 'pending'`, [
      hook.id,
    ]);

    const events = await eventsOf(async () => {
      const res = await api(`/webhooks/${hook.id}/replay?since=${encodeURIComponent(since.toISOString())}`, { method: "POST" });
      assert.equal(res.status, 202, JSON.stringify(res.body));
      assert.deepEqual(res.body.data, { since: since.toISOString(), count: 3 });
    });
    assert.deepEqual(
      events.map((e) => [e.action, JSON.parse(e.changes).count]),
      [["webhook.replayed", 3]],
    );
    const pending = ((await api(`/webhooks/${hook.id}/deliveries?limit=100`)).body.data as DeliveryRecord[]).filter(
      (d) => d.status === "pending",
    );
    assert.deepEqual(pending.map((d) => d.eventId).sort(), sent.map((d) => d.eventId).sort());
    assert.equal((await api(`/webhooks/${bystander.id}/deliveries`)).body.data.length, 0);

    const future = await api(`/webhooks/${hook.id}/replay?since=${new Date(Date.now() + 60_000).toISOString()}`, { method: "POST" });
    assert.equal(future.body.data.count, 0);
  });

  it("replays more events than one INSERT writes (a thousand), each once", async () => {
    const hook = await createHook();
    const count = 1_050;
    const at = new Date(Date.now() - 60_000);
    await sql(app.databaseUrl, `INSERT INTO "WebhookMessage" ("id", "type", "payload", "createdAt") VALUES ('msg_bulk_0', 'comment.pinned', '{}', ?)`, [storedTime(app.databaseUrl, at)]);
    await sql(
      app.databaseUrl,
      `INSERT INTO "WebhookMessage" ("id", "type", "payload", "createdAt")
       WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < ${count - 1})
       SELECT 'msg_bulk_' || i, 'comment.pinned', '{}', m."createdAt" FROM n, "WebhookMessage" m WHERE m."id" = 'msg_bulk_0'`,
    );
    await sql(
      app.databaseUrl,
      `INSERT INTO "WebhookDelivery" ("id", "endpointId", "messageId", "status", "attempts", "nextAttemptAt", "createdAt", "updatedAt")
       SELECT 'dlv_' || m."id", ?, m."id", 'delivered', 1, m."createdAt", m."createdAt", m."createdAt" FROM "WebhookMessage" m WHERE m."id" LIKE 'msg_bulk_%'`,
      [hook.id],
    );
    const res = await api(`/webhooks/${hook.id}/replay?since=${new Date(at.getTime() - 60_000).toISOString()}`, { method: "POST" });
    assert.equal(res.status, 202, JSON.stringify(res.body));
    assert.equal(res.body.data.count, count);
    const [queued] = await sql<{ n: number | string; events: number | string }>(
      app.databaseUrl,
      `SELECT COUNT(*) AS "n", COUNT(DISTINCT "messageId") AS "events" FROM "WebhookDelivery" WHERE "endpointId" = ? AND "status" = 'pending'`,
      [hook.id],
    );
    assert.deepEqual([Number(queued?.n), Number(queued?.events)], [count, count]);
  });

  it("WEBHOOK_LOG_DAYS: the server prunes the log at start, keeping pending deliveries and events still waiting for theirs", async () => {
    const hook = await createHook();
    const old = storedTime(app.databaseUrl, new Date(Date.now() - 40 * 86_400_000));
    const recent = storedTime(app.databaseUrl, new Date(Date.now() - 86_400_000));
    const message = (id: string, at: string, fanOut: string | null) =>
      sql(app.databaseUrl, `INSERT INTO "WebhookMessage" ("id", "type", "payload", "createdAt", "fanOut") VALUES (?, 'comment.pinned', '{}', ?, ?)`, [
        id,
        at,
        fanOut,
      ]);
    const delivery = (id: string, messageId: string, status: string, at: string) =>
      sql(
        app.databaseUrl,
        `INSERT INTO "WebhookDelivery" ("id", "endpointId", "messageId", "status", "attempts", "nextAttemptAt", "createdAt", "updatedAt")
         VALUES (?, ?, ?, ?, 1, ?, ?, ?)`,
        [id, hook.id, messageId, status, at, at, at],
      );
    await message("msg_old_done", old, null);
    await delivery("dlv_old_done", "msg_old_done", "delivered", old);
    await sql(app.databaseUrl, `INSERT INTO "WebhookAttempt" ("id", "deliveryId", "attemptedAt", "statusCode", "durationMs") VALUES ('att_old', 'dlv_old_done', ?, 200, 5)`, [
      old,
    ]);
    await message("msg_old_waiting", old, hook.id);
    await message("msg_old_pending", old, null);
    await delivery("dlv_old_pending", "msg_old_pending", "pending", old);
    await message("msg_recent", recent, null);
    await delivery("dlv_recent", "msg_recent", "delivered", recent);

    const ids = async () => [
      ...(await sql<{ id: string }>(app.databaseUrl, `SELECT "id" FROM "WebhookMessage" WHERE "id" IN ('msg_old_done', 'msg_old_waiting', 'msg_old_pending', 'msg_recent')`)),
      ...(await sql<{ id: string }>(app.databaseUrl, `SELECT "id" FROM "WebhookDelivery" WHERE "id" IN ('dlv_old_done', 'dlv_old_pending', 'dlv_recent')`)),
      ...(await sql<{ id: string }>(app.databaseUrl, `SELECT "id" FROM "WebhookAttempt" WHERE "id" = 'att_old'`)),
    ].map((row) => row.id);
    assert.equal((await ids()).length, 8);
    const second = await startApp({ sameDatabaseAs: app, env: { ...PERMISSIVE, WEBHOOK_DISPATCH: "false", WEBHOOK_LOG_DAYS: "30" } });
    try {
      const deadline = Date.now() + 10_000;
      while ((await ids()).includes("msg_old_done") && Date.now() < deadline) await new Promise((r) => setTimeout(r, 100));
      assert.deepEqual((await ids()).sort(), ["dlv_old_pending", "dlv_recent", "msg_old_pending", "msg_old_waiting", "msg_recent"]);
    } finally {
      await second.stop();
    }
  });

  it("keeps every secret out of the server's logs", () => {
    assert.doesNotMatch(app.output(), /whsec_/);
  });
});

describe("the command line", () => {
  it("adds an endpoint, printing the secret alone on stdout, audited as the operator", async () => {
    const before = (await auditRows()).length;
    const added = await cli([
      "add",
      "--url",
      `${HOOK}/cli`,
      "--events",
      "comment.updated,comment.pinned",
      "--description",
      "From the shell",
    ]);
    assert.equal(added.code, 0, added.stderr);
    assert.match(added.stdout, /^whsec_[A-Za-z0-9+/]{43}=\n$/);
    assert.match(added.stderr, /shown once/);
    const rows = await auditRows();
    assert.equal(rows.length, before + 1);
    assert.deepEqual([rows.at(-1)?.action, rows.at(-1)?.via, rows.at(-1)?.actorKeyId], ["webhook.created", "cli", null]);

    const list = await cli(["list", "--json"]);
    const hooks = JSON.parse(list.stdout) as { id: string; url: string; description: string; events: string[] }[];
    const hook = hooks.find((h) => h.url === `${HOOK}/cli`);
    assert.deepEqual([hook?.description, hook?.events], ["From the shell", ["comment.updated", "comment.pinned"]]);
    assert.ok(!list.stdout.includes("whsec_"));
    const table = await cli(["list"]);
    assert.match(table.stdout, /^ID\s+URL\s+EVENTS\s+STATE/);
    assert.match(table.stdout, new RegExp(`${hook?.id}\\s+${HOOK}/cli\\s+comment.updated,comment.pinned\\s+enabled\\s+From the shell`));
  });

  it("disables, enables, tests, rotates and removes by id", async () => {
    const hook = await createHook();
    const run = (...args: string[]) => cli(args);
    const disabled = await run("disable", hook.id);
    assert.equal(disabled.code, 0, disabled.stderr);
    assert.equal(disabled.stdout, "");
    assert.equal((await api(`/webhooks/${hook.id}`)).body.data.enabled, false);
    assert.match((await run("list")).stdout, new RegExp(`${hook.id}.*disabled \\(manual\\)`));
    await run("enable", hook.id);
    assert.equal((await api(`/webhooks/${hook.id}`)).body.data.enabled, true);

    const tested = await run("test", hook.id);
    assert.equal(tested.code, 0, tested.stderr);
    const [delivery] = (await api(`/webhooks/${hook.id}/deliveries`)).body.data as DeliveryRecord[];
    assert.equal(delivery?.type, "webhook.test");
    assert.match(tested.stderr, new RegExp(delivery?.eventId ?? "-"));

    const rotated = await run("rotate-secret", hook.id);
    assert.equal(rotated.code, 0, rotated.stderr);
    const secret = rotated.stdout.trim();
    assert.match(rotated.stdout, /^whsec_\S+\n$/);
    const [row] = await sql<{ secret: string; previousSecret: string }>(app.databaseUrl, `SELECT * FROM "WebhookEndpoint" WHERE "id" = ?`, [
      hook.id,
    ]);
    assert.deepEqual([row?.secret, row?.previousSecret], [secret, hook.secret]);

    const removed = await run("remove", hook.id);
    assert.equal(removed.code, 0, removed.stderr);
    assert.equal((await api(`/webhooks/${hook.id}`)).status, 404);
    const actions = (await auditRows()).filter((e) => e.resourceId === hook.id && e.via === "cli").map((e) => e.action);
    assert.deepEqual(actions, ["webhook.updated", "webhook.updated", "webhook.tested", "webhook.secret_rotated", "webhook.deleted"]);
  });

  it("fails with one line for bad input or an unknown id, writing nothing", async () => {
    const before = (await auditRows()).length;
    for (const [args, reason] of [
      [["add", "--url", HOOK], /--events/],
      [["add", "--url", HOOK, "--events", "comment.nope"], /--events: "comment.nope" is not an event type/],
      [["add", "--url", "nope", "--events", "comment.pinned"], /--url: is not a URL/],
      [["remove", "whk_nope"], /No webhook has the id "whk_nope"/],
      [["test"], /exactly one webhook ID/],
      [["frobnicate"], /webhooks takes add, list/],
    ] as const) {
      const res = await cli([...args]);
      assert.equal(res.code, 1, args.join(" "));
      assert.equal(res.stdout, "");
      assert.match(res.stderr.split("\n")[0] ?? "", reason);
    }
    assert.equal((await auditRows()).length, before);
  });
});

describe("address refusals (SSRF) at creation", () => {
  let strict: TestApp;
  let strictAdmin: string;
  before(async () => {
    // No WEBHOOK_ALLOW_PRIVATE; the server's own /etc/hosts names a private address.
    strict = await startApp({
      hosts: ["10.20.30.40 private-hook.test"],
      env: { WEBHOOK_ALLOW_HTTP: "false", WEBHOOK_ALLOW_PRIVATE: "false" },
    });
    strictAdmin = (await strict.cli(["keys", "create", "--name", "admin", "--scopes", "admin"])).stdout.trim();
  });
  after(async () => {
    await strict?.stop();
  });

  const create = (url: string) =>
    strict.json("/api/v1/webhooks", {
      method: "POST",
      key: strictAdmin,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url, events: ["comment.pinned"] }),
    });

  for (const [url, reason] of [
    ["https://127.0.0.1/hook", /127\.0\.0\.1 is a loopback address/],
    ["https://169.254.169.254/latest/meta-data", /169\.254\.169\.254 is a linkLocal address/],
    ["https://[::1]/hook", /::1 is a loopback address/],
    ["https://[::ffff:10.0.0.1]/hook", /private address/],
    ["https://localhost/hook", /localhost resolves to 127\.0\.0\.1, which is a loopback address/],
    ["https://private-hook.test/hook", /private-hook\.test resolves to 10\.20\.30\.40, which is a private address/],
    ["https://unknown-host.invalid/hook", /does not resolve/],
    ["http://example.com/hook", /must be an https URL/],
  ] as const) {
    it(`refuses ${url} with a 400 naming url`, async () => {
      const res = await create(url);
      assert.equal(res.status, 400, JSON.stringify(res.body));
      assert.deepEqual(
        res.body.error.details.map((d: { field: string }) => d.field),
        ["url"],
      );
      assert.match(res.body.error.details[0].message, reason);
    });
  }

  it("wrote nothing for any of them, and refuses a change to a private URL too", async () => {
    assert.equal((await sql(strict.databaseUrl, `SELECT "id" FROM "WebhookEndpoint"`)).length, 0);
    assert.equal((await sql(strict.databaseUrl, `SELECT "id" FROM "AuditEvent" WHERE "resourceType" = 'webhook'`)).length, 0);
    // A public address literal needs no resolver, so this works without the internet.
    const created = await create("https://203.0.114.1/hook");
    assert.equal(created.status, 201, JSON.stringify(created.body));
    const patched = await strict.json(`/api/v1/webhooks/${created.body.data.id}`, {
      method: "PATCH",
      key: strictAdmin,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ url: "https://private-hook.test/x" }),
    });
    assert.equal(patched.status, 400);
    assert.equal(patched.body.error.details[0].field, "url");
  });

  it("refuses http://127.0.0.1, http://169.254.169.254 and http://[::1] when http is allowed but private addresses are not", async () => {
    for (const url of ["http://127.0.0.1/hook", "http://169.254.169.254/", "http://[::1]/hook"]) {
      const res = await runCli(strict.databaseUrl, ["webhooks", "add", "--url", url, "--events", "comment.pinned"], {
        WEBHOOK_ALLOW_HTTP: "true",
        WEBHOOK_ALLOW_PRIVATE: "false",
      });
      assert.equal(res.code, 1, url);
      assert.equal(res.stdout, "");
      assert.match(res.stderr, /--url: .* is a (loopback|linkLocal) address; webhooks go only to public addresses/);
    }
  });
});
