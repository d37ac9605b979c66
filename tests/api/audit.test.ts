import assert from "node:assert/strict";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { Ajv2020 } from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { startApp, type TestApp } from "../support/app";
import { dataset } from "../support/dataset";
import { sql, storedTime } from "../support/sql";

// The audit trail beyond comments: the admin scope, one event per change (keys, imports,
// sessions, a comment edited from the dashboard) in the change's own transaction, the cursor
// list and its filters, and the command line's list, export and prune.

let app: TestApp;
let adminKey: string;
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "feedback-audit-"));

before(async () => {
  app = await startApp({ dataset });
  const created = await app.cli(["keys", "create", "--name", "auditor", "--scopes", "read,admin"]);
  assert.equal(created.code, 0, created.stderr);
  adminKey = created.stdout.trim();
});
after(async () => {
  await app?.stop();
  fs.rmSync(tmp, { recursive: true, force: true });
});

interface EventRow {
  id: string;
  action: string;
  actorKeyId: string | null;
  actorName: string;
  via: string;
  resourceType: string;
  resourceId: string | null;
  changes: string;
  requestId: string | null;
  ip: string | null;
  userAgent: string | null;
}

const allEvents = () => sql<EventRow>(app.databaseUrl, `SELECT * FROM "AuditEvent" ORDER BY "id"`);

/** Runs a change and returns the events it added, checking none went missing. */
async function eventsOf(change: () => Promise<unknown>): Promise<EventRow[]> {
  const before = new Set((await allEvents()).map((e) => e.id));
  await change();
  const after = await allEvents();
  assert.ok([...before].every((id) => after.some((e) => e.id === id)), "no event was edited away");
  return after.filter((e) => !before.has(e.id));
}

const keyIdOf = async (name: string) =>
  (await sql<{ id: string }>(app.databaseUrl, `SELECT "id" FROM "ApiKey" WHERE "name" = ?`, [name]))[0]?.id;

const audit = (query = "", key = adminKey) => app.json(`/api/v1/audit-events${query}`, { key });

async function refuseAuditInserts(): Promise<() => Promise<void>> {
  const statements =
    app.engine === "sqlite"
      ? [`CREATE TRIGGER "refuse_audit" BEFORE INSERT ON "AuditEvent" BEGIN SELECT RAISE(ABORT, 'audit refused'); END`]
      : [
          `CREATE OR REPLACE FUNCTION refuse_audit() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'audit refused'; END $$ LANGUAGE plpgsql`,
          `CREATE TRIGGER "refuse_audit" BEFORE INSERT ON "AuditEvent" FOR EACH ROW EXECUTE FUNCTION refuse_audit()`,
        ];
  for (const statement of statements) await sql(app.databaseUrl, statement);
  return () => sql(app.databaseUrl, `DROP TRIGGER "refuse_audit"${app.engine === "postgres" ? ` ON "AuditEvent"` : ""}`).then(() => {});
}

/**
 * `count` events dated `at`, written straight to the table in one statement, with ids of the
 * trail's own shape (lib/ids.ts: the time, a sequence, then randomness); returns the ids.
 */
async function insertOldEvents(at: Date, count: number): Promise<string[]> {
  const time = at.getTime().toString(36).padStart(9, "0");
  const ids = Array.from({ length: count }, (_, i) => {
    const random = BigInt(`0x${randomBytes(8).toString("hex")}`).toString(36).padStart(13, "0");
    return `evt_${time}${i.toString(36).padStart(3, "0")}${random}`;
  });
  await sql(
    app.databaseUrl,
    `INSERT INTO "AuditEvent" ("id", "createdAt", "actorName", "via", "action", "resourceType", "resourceId", "changes")
     VALUES ${ids.map(() => "(?, ?, 'cli (test)', 'cli', 'key.created', 'key', 'key_old', '{}')").join(", ")}`,
    ids.flatMap((id) => [id, storedTime(app.databaseUrl, at)]),
  );
  return ids;
}

/** One such event. */
async function insertOldEvent(at: Date): Promise<string> {
  const [id] = await insertOldEvents(at, 1);
  return id as string;
}

describe("the admin scope", () => {
  it("reads the trail; read and write keys get 403, no key 401", async () => {
    assert.equal((await audit()).status, 200);
    for (const key of [app.keys.read, app.keys.write]) {
      const { status, body } = await audit("", key);
      assert.equal(status, 403);
      assert.equal(body.error.code, "forbidden");
      assert.match(body.error.message, /admin/);
    }
    const anonymous = await app.json("/api/v1/audit-events", { key: null });
    assert.equal(anonymous.status, 401);
  });

  it("is never implied: a new key has read and write unless --scopes says otherwise", async () => {
    const plain = await app.cli(["keys", "create", "--name", "plain"]);
    assert.equal(plain.code, 0, plain.stderr);
    const [row] = await sql<{ scopes: string }>(app.databaseUrl, `SELECT "scopes" FROM "ApiKey" WHERE "name" = 'plain'`);
    assert.equal(row?.scopes, "read,write");
    assert.equal((await audit("", plain.stdout.trim())).status, 403);
    const bad = await app.cli(["keys", "create", "--name", "x", "--scopes", "read,root"]);
    assert.equal(bad.code, 1);
    assert.match(bad.stderr, /unknown scope root; use read, write, admin/);
  });

  it("shows in the session's scopes", async () => {
    const res = await app.request("/api/session", {
      method: "POST",
      key: null,
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ key: adminKey }),
    });
    assert.equal(res.status, 200);
    assert.deepEqual((await res.json()).data, { keyName: "auditor", scopes: ["read", "admin"] });
  });
});

describe("one event per change, with its actor", () => {
  it("key.created from the command line: via cli, no key, the name and scopes", async () => {
    const added = await eventsOf(async () => {
      const created = await app.cli(["keys", "create", "--name", "zapier", "--scopes", "read"]);
      assert.equal(created.code, 0, created.stderr);
    });
    const id = await keyIdOf("zapier");
    assert.equal(added.length, 1);
    const [event] = added;
    assert.equal(event?.action, "key.created");
    assert.equal(event?.via, "cli");
    assert.equal(event?.actorKeyId, null);
    assert.match(event?.actorName ?? "", /^cli \(.+\)$/);
    assert.equal(event?.resourceType, "key");
    assert.equal(event?.resourceId, id);
    assert.deepEqual(JSON.parse(event?.changes ?? ""), { name: { from: null, to: "zapier" }, scopes: { from: null, to: "read" } });
    assert.equal(event?.requestId, null);
  });

  it("key.revoked once; revoking it again changes nothing and records nothing", async () => {
    await app.cli(["keys", "create", "--name", "to-revoke"]);
    const id = (await keyIdOf("to-revoke")) as string;
    const added = await eventsOf(async () => assert.equal((await app.cli(["keys", "revoke", id])).code, 0));
    assert.equal(added.length, 1);
    assert.equal(added[0]?.action, "key.revoked");
    assert.equal(added[0]?.resourceId, id);
    assert.equal(added[0]?.via, "cli");
    const changes = JSON.parse(added[0]?.changes ?? "");
    assert.equal(changes.revokedAt.from, null);
    assert.ok(!Number.isNaN(Date.parse(changes.revokedAt.to)));

    const again = await eventsOf(async () => {
      const result = await app.cli(["keys", "revoke", id]);
      assert.equal(result.code, 0);
      assert.match(result.stderr, /already revoked; nothing changed/);
    });
    assert.deepEqual(again, []);
  });

  it("import.applied: one event with the counts, not one per row", async () => {
    const file = path.join(tmp, "boards.json");
    fs.writeFileSync(
      file,
      JSON.stringify({
        version: 1,
        boards: [
          { id: "b-audit-1", name: "Audit one" },
          { id: "b-audit-2", name: "Audit two" },
        ],
        users: [{ id: "u-audit", name: "Audit user" }],
      }),
    );
    const added = await eventsOf(async () => assert.equal((await app.cli(["import", file])).code, 0));
    assert.equal(added.length, 1);
    assert.equal(added[0]?.action, "import.applied");
    assert.equal(added[0]?.via, "cli");
    assert.equal(added[0]?.resourceType, "import");
    assert.equal(added[0]?.resourceId, "boards.json");
    assert.deepEqual(JSON.parse(added[0]?.changes ?? ""), { boards: 2, statuses: 0, users: 1, posts: 0, comments: 0, changelogs: 0 });
  });

  it("session.created, a comment edited through the session (via dashboard) and session.ended", async () => {
    const writeKeyId = await keyIdOf("test-write");
    const browser = { "user-agent": "AuditTest/1.0", "x-request-id": "audit-sign-in" };
    let pair = "";
    const created = await eventsOf(async () => {
      const res = await app.request("/api/session", {
        method: "POST",
        key: null,
        headers: { "content-type": "application/json", ...browser },
        body: JSON.stringify({ key: app.keys.write }),
      });
      assert.equal(res.status, 200);
      pair = (res.headers.get("set-cookie") ?? "").split(";")[0] ?? "";
    });
    assert.equal(created.length, 1);
    const [signIn] = created;
    assert.equal(signIn?.action, "session.created");
    assert.equal(signIn?.actorKeyId, writeKeyId);
    assert.equal(signIn?.actorName, "test-write");
    assert.equal(signIn?.via, "dashboard");
    assert.equal(signIn?.resourceType, "session");
    assert.match(signIn?.resourceId ?? "", /^ses_/);
    assert.equal(signIn?.requestId, "audit-sign-in");
    assert.equal(signIn?.ip, "127.0.0.1");
    assert.equal(signIn?.userAgent, "AuditTest/1.0");

    const edited = await eventsOf(async () => {
      const res = await app.request("/api/v1/comments/c-first", {
        method: "PUT",
        key: null,
        headers: { "content-type": "application/json", cookie: pair, origin: app.url, "sec-fetch-site": "same-origin" },
        body: JSON.stringify({ pinComment: true }),
      });
      assert.equal(res.status, 200);
    });
    assert.equal(edited.length, 1);
    assert.equal(edited[0]?.action, "comment.pinned");
    assert.equal(edited[0]?.via, "dashboard");
    assert.equal(edited[0]?.actorKeyId, writeKeyId);
    assert.equal(edited[0]?.resourceId, "c-first");

    const ended = await eventsOf(async () => {
      const res = await app.request("/api/session", { method: "DELETE", key: null, headers: { cookie: pair, ...browser } });
      assert.equal(res.status, 204);
    });
    assert.equal(ended.length, 1);
    assert.equal(ended[0]?.action, "session.ended");
    assert.equal(ended[0]?.resourceId, signIn?.resourceId);
    assert.equal(ended[0]?.actorKeyId, writeKeyId);
    assert.equal(ended[0]?.via, "dashboard");

    const again = await eventsOf(async () => {
      await app.request("/api/session", { method: "DELETE", key: null, headers: { cookie: pair } });
    });
    assert.deepEqual(again, [], "signing out of a session that has ended changes nothing");
  });

  it("session.refused: the key's id only for a revoked key, and never the submitted text", async () => {
    const revoked = await app.cli(["keys", "create", "--name", "gone"]);
    const revokedKey = revoked.stdout.trim();
    const revokedId = (await keyIdOf("gone")) as string;
    await app.cli(["keys", "revoke", revokedId]);
    const unknownKey = `fbk_${randomBytes(32).toString("base64url")}`;

    for (const [submitted, keyId, name] of [
      [unknownKey, null, "unknown key"],
      ["not even a key", null, "unknown key"],
      [revokedKey, revokedId, "gone"],
    ] as const) {
      const added = await eventsOf(async () => {
        const res = await app.request("/api/session", {
          method: "POST",
          key: null,
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ key: submitted }),
        });
        assert.equal(res.status, 401);
      });
      assert.equal(added.length, 1, submitted);
      assert.equal(added[0]?.action, "session.refused");
      assert.equal(added[0]?.actorKeyId, keyId);
      assert.equal(added[0]?.actorName, name);
      assert.equal(added[0]?.via, "dashboard");
      assert.equal(added[0]?.ip, "127.0.0.1");
    }
    const stored = JSON.stringify(await allEvents());
    for (const secret of [unknownKey, revokedKey]) {
      assert.ok(!stored.includes(secret.slice(4, 16)), "no part of a submitted key is stored");
    }
  });
});

describe("a change whose event cannot be written is not made", () => {
  it("leaves the key unrevoked, the import unapplied and no key created", async () => {
    await app.cli(["keys", "create", "--name", "survivor"]);
    const id = (await keyIdOf("survivor")) as string;
    const file = path.join(tmp, "refused.json");
    fs.writeFileSync(file, JSON.stringify({ version: 1, boards: [{ id: "b-refused", name: "Must not appear" }] }));
    const before = (await allEvents()).length;
    const allow = await refuseAuditInserts();
    try {
      const revoke = await app.cli(["keys", "revoke", id]);
      assert.equal(revoke.code, 1);
      const imported = await app.cli(["import", file]);
      assert.equal(imported.code, 1);
      const created = await app.cli(["keys", "create", "--name", "never"]);
      assert.equal(created.code, 1);
      assert.equal(created.stdout, "", "no key is printed");
    } finally {
      await allow();
    }
    const [key] = await sql<{ revokedAt: unknown }>(app.databaseUrl, `SELECT "revokedAt" FROM "ApiKey" WHERE "id" = ?`, [id]);
    assert.equal(key?.revokedAt, null);
    assert.equal((await sql(app.databaseUrl, `SELECT "id" FROM "Board" WHERE "id" = 'b-refused'`)).length, 0);
    assert.equal(await keyIdOf("never"), undefined);
    assert.equal((await allEvents()).length, before);
  });

  it("opens no session when session.created cannot be written", async () => {
    const sessions = async () => (await sql(app.databaseUrl, `SELECT "id" FROM "Session"`)).length;
    const count = await sessions();
    const allow = await refuseAuditInserts();
    try {
      const res = await app.request("/api/session", {
        method: "POST",
        key: null,
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ key: app.keys.read }),
      });
      assert.equal(res.status, 500);
      assert.equal(res.headers.get("set-cookie"), null);
    } finally {
      await allow();
    }
    assert.equal(await sessions(), count);
  });
});

describe("GET /api/v1/audit-events", () => {
  it("answers records newest first, in the cursor envelope", async () => {
    const { status, body, headers } = await audit("?limit=3");
    assert.equal(status, 200);
    assert.match(headers.get("content-type") ?? "", /^application\/json/);
    assert.deepEqual(Object.keys(body).sort(), ["data", "nextCursor"]);
    assert.equal(body.data.length, 3);
    assert.equal(typeof body.nextCursor, "string");
    const ids = body.data.map((e: { id: string }) => e.id);
    assert.deepEqual(ids, [...ids].sort().reverse());
    const [newest] = await sql<EventRow>(app.databaseUrl, `SELECT * FROM "AuditEvent" ORDER BY "id" DESC LIMIT 1`);
    const record = body.data[0];
    assert.equal(record.id, newest?.id);
    assert.deepEqual(Object.keys(record).sort(), ["action", "actor", "changes", "createdAt", "id", "request", "resource"]);
    assert.deepEqual(record.actor, { keyId: newest?.actorKeyId, name: newest?.actorName, via: newest?.via });
    assert.deepEqual(record.resource, { type: newest?.resourceType, id: newest?.resourceId });
    assert.deepEqual(record.changes, JSON.parse(newest?.changes ?? ""));
    assert.deepEqual(record.request, { id: newest?.requestId, ip: newest?.ip, userAgent: newest?.userAgent });
  });

  it("walks every event once, newest first, while new events arrive between pages", async () => {
    const existing = (await allEvents()).map((e) => e.id).reverse();
    const seen: string[] = [];
    let cursor: string | null = null;
    let pages = 0;
    do {
      const page: { status: number; body: { data: { id: string }[]; nextCursor: string | null } } = await audit(
        `?limit=4${cursor ? `&cursor=${encodeURIComponent(cursor)}` : ""}`,
      );
      assert.equal(page.status, 200);
      seen.push(...page.body.data.map((e) => e.id));
      cursor = page.body.nextCursor;
      pages += 1;
      // A change between two fetches: its event is newer than every page, so it shifts none.
      if (cursor && pages <= 3) await app.cli(["keys", "create", "--name", `while-paging-${pages}`]);
    } while (cursor);
    assert.ok(pages > 3, "several pages");
    assert.equal(new Set(seen).size, seen.length, "no event repeated");
    assert.deepEqual(seen, existing, "every event that existed, in order, none skipped");
    assert.equal((await allEvents()).length, existing.length + 3, "the new events are there for the next walk");
  });

  it("the last page has nextCursor null", async () => {
    const all = await allEvents();
    const { body } = await audit(`?limit=${all.length}`);
    assert.equal(body.data.length, all.length);
    assert.equal(body.nextCursor, null);
  });

  it("filters by action (several), resource, actor and time", async () => {
    const all = await allEvents();
    const idsOf = (body: { data: { id: string }[] }) => body.data.map((e) => e.id).sort();
    const expect = (predicate: (e: EventRow) => boolean) =>
      all
        .filter(predicate)
        .map((e) => e.id)
        .sort();

    const twoActions = expect((e) => e.action === "key.revoked" || e.action === "session.refused");
    assert.ok(twoActions.length >= 2);
    assert.deepEqual(idsOf((await audit("?limit=100&action=key.revoked,session.refused")).body), twoActions);
    assert.deepEqual(idsOf((await audit("?limit=100&action=key.revoked&action=session.refused")).body), twoActions);

    assert.deepEqual(idsOf((await audit("?limit=100&resourceType=comment&resourceId=c-first")).body), expect((e) => e.resourceId === "c-first"));
    const writeKeyId = (await keyIdOf("test-write")) as string;
    const byWriter = expect((e) => e.actorKeyId === writeKeyId);
    assert.ok(byWriter.length >= 3);
    assert.deepEqual(idsOf((await audit(`?limit=100&actorKeyId=${writeKeyId}`)).body), byWriter);
    assert.deepEqual((await audit("?resourceId=nothing-like-this")).body, { data: [], nextCursor: null });

    const old = await insertOldEvent(new Date("2020-06-15T12:00:00.000Z"));
    try {
      const window = (await audit("?since=2020-06-15T00:00:00Z&until=2020-06-16T00:00:00Z")).body;
      assert.deepEqual(idsOf(window), [old]);
      const edge = (await audit("?since=2020-06-15T12:00:00.000Z&until=2020-06-15T12:00:00.000Z")).body;
      assert.deepEqual(idsOf(edge), [old], "since and until are inclusive");
      const offset = (await audit(`?since=${encodeURIComponent("2020-06-15T13:00:00+01:00")}&limit=100`)).body;
      assert.ok(idsOf(offset).includes(old), "an offset names the same instant");
      const recent = (await audit("?since=2021-01-01T00:00:00Z&limit=100")).body;
      assert.ok(!idsOf(recent).includes(old));
    } finally {
      await sql(app.databaseUrl, `DELETE FROM "AuditEvent" WHERE "id" = ?`, [old]);
    }
  });

  const forged = Buffer.from("evt_notanid").toString("base64url");
  const refusals: [string, string][] = [
    ["limit=0", "limit"],
    ["limit=101", "limit"],
    ["limit=abc", "limit"],
    ["limit=5&limit=6", "limit"],
    ["action=comment.updated,nope", "action"],
    ["since=yesterday", "since"],
    ["until=2026-02-30T00:00:00Z", "until"],
    ["since=2026-02-01T00:00:00Z&until=2026-01-01T00:00:00Z", "since"],
    ["cursor=not-a-cursor!", "cursor"],
    [`cursor=${forged}`, "cursor"],
    [`cursor=${"A".repeat(300)}`, "cursor"],
    ["resourceId=a%00b", "resourceId"],
  ];
  for (const [query, field] of refusals) {
    it(`refuses ${query} with a 400 naming ${field}`, async () => {
      const { status, body } = await audit(`?${query}`);
      assert.equal(status, 400);
      assert.equal(body.error.code, "invalid_request");
      assert.ok(
        body.error.details.some((d: { field: string }) => d.field === field),
        JSON.stringify(body.error.details),
      );
    });
  }

  it("refuses writes with 405 and Allow", async () => {
    const res = await app.request("/api/v1/audit-events", { method: "DELETE", key: adminKey });
    assert.equal(res.status, 405);
    assert.match(res.headers.get("allow") ?? "", /GET/);
  });

  it("is in the OpenAPI document, and its answers match it", async () => {
    const doc = await (await app.request("/api/v1/openapi.json", { key: null })).json();
    const operation = doc.paths["/audit-events"]?.get;
    assert.ok(operation, "GET /audit-events is documented");
    assert.equal(operation["x-scope"], "admin");
    const names = operation.parameters.map((p: { name: string }) => p.name).sort();
    assert.deepEqual(names, ["action", "actorKeyId", "cursor", "limit", "resourceId", "resourceType", "since", "until"]);
    const ajv = new Ajv2020({ strict: false, allErrors: true });
    (addFormats as unknown as (a: Ajv2020) => void)(ajv);
    ajv.addSchema({ $id: "openapi", components: doc.components }, "openapi");
    for (const [query, key] of [
      ["?limit=5", adminKey],
      ["?limit=0", adminKey],
      ["", app.keys.write],
    ] as const) {
      const { status, body } = await audit(query, key);
      const response = operation.responses[String(status)];
      assert.ok(response, `documents ${status}`);
      const schema = JSON.parse(JSON.stringify(response.content["application/json"].schema).replaceAll("#/components/", "openapi#/components/"));
      const validate = ajv.compile(schema);
      assert.ok(validate(body), `${status}: ${ajv.errorsText(validate.errors)}`);
    }
  });
});

describe("feedback audit", () => {
  it("list: a table newest first, or one JSON array; filters as the API's", async () => {
    const table = await app.cli(["audit", "list", "--limit", "5"]);
    assert.equal(table.code, 0, table.stderr);
    const lines = table.stdout.trim().split("\n");
    assert.match(lines[0] ?? "", /^TIME\s+ACTION\s+ACTOR\s+VIA\s+RESOURCE\s+CHANGES$/);
    assert.equal(lines.length, 6);

    const json = await app.cli(["audit", "list", "--json", "--action", "key.revoked,import.applied", "--limit", "100"]);
    assert.equal(json.code, 0, json.stderr);
    const listed = JSON.parse(json.stdout);
    const api = (await audit("?action=key.revoked,import.applied&limit=100")).body.data;
    assert.deepEqual(listed, api);

    const refused = await app.cli(["audit", "list", "--since", "soon"]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /--since: must be an ISO 8601 date-time/);
  });

  it("export: valid NDJSON, one event per line, oldest first", async () => {
    const file = path.join(tmp, "trail.ndjson");
    const result = await app.cli(["audit", "export", file]);
    assert.equal(result.code, 0, result.stderr);
    const lines = fs.readFileSync(file, "utf8").trimEnd().split("\n");
    const events = lines.map((line) => JSON.parse(line));
    const all = await allEvents();
    assert.equal(events.length, all.length);
    assert.deepEqual(
      events.map((e) => e.id),
      all.map((e) => e.id),
    );
    assert.match(result.stdout, new RegExp(`^Exported ${all.length} audit events to `));
    assert.deepEqual(events.at(-1), (await audit("?limit=1")).body.data[0]);
    assert.equal((await app.cli(["audit", "export", file])).code, 1, "an existing file needs --force");
    const filtered = await app.cli(["audit", "export", "-", "--action", "session.refused"]);
    const refusedLines = filtered.stdout.trimEnd().split("\n").map((line) => JSON.parse(line));
    assert.ok(refusedLines.length >= 3);
    assert.ok(refusedLines.every((e) => e.action === "session.refused"));
  });

  it("prune: removes what is older than N days, refuses without N or AUDIT_RETENTION_DAYS", async () => {
    const old = await insertOldEvent(new Date(Date.now() - 40 * 86_400_000));
    const count = (await allEvents()).length;
    const refused = await app.cli(["audit", "prune"]);
    assert.equal(refused.code, 1);
    assert.match(refused.stderr, /--older-than-days/);
    const pruned = await app.cli(["audit", "prune", "--older-than-days", "30"]);
    assert.equal(pruned.code, 0, pruned.stderr);
    assert.equal(pruned.stdout.trim(), "Removed 1 audit events older than 30 days.");
    const left = await allEvents();
    assert.equal(left.length, count - 1);
    assert.ok(!left.some((e) => e.id === old));
  });

  it("prune: removes a backlog of several slices (lib/retention.ts deletes 250 at a time), and nothing newer", async () => {
    const backlog = 1_001;
    await insertOldEvents(new Date(Date.now() - 60 * 86_400_000), backlog);
    const newer = (await allEvents()).length - backlog;
    const pruned = await app.cli(["audit", "prune", "--older-than-days", "50"]);
    assert.equal(pruned.code, 0, pruned.stderr);
    assert.equal(pruned.stdout.trim(), `Removed ${backlog} audit events older than 50 days.`);
    assert.equal((await allEvents()).length, newer);
  });

  it("AUDIT_RETENTION_DAYS: the server prunes at start", async () => {
    const old = await insertOldEvent(new Date(Date.now() - 10 * 86_400_000));
    const recent = await insertOldEvent(new Date(Date.now() - 86_400_000));
    const second = await startApp({ sameDatabaseAs: app, env: { AUDIT_RETENTION_DAYS: "7" } });
    try {
      const deadline = Date.now() + 10_000;
      let ids = (await allEvents()).map((e) => e.id);
      while (ids.includes(old) && Date.now() < deadline) {
        await new Promise((r) => setTimeout(r, 100));
        ids = (await allEvents()).map((e) => e.id);
      }
      assert.ok(!ids.includes(old), "the event older than 7 days is gone");
      assert.ok(ids.includes(recent), "a newer one stays");
    } finally {
      await second.stop();
    }
  });
});
