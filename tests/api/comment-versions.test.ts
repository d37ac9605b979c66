import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startApp, type TestApp } from "../support/app";
import { dataset } from "../support/dataset";
import { sql } from "../support/sql";

// Versions of a comment: its ETag, conditional reads and writes, its revisions, and the audit
// event each change writes in the change's own transaction.

let app: TestApp;
before(async () => {
  app = await startApp({ dataset });
});
after(async () => {
  await app?.stop();
});

const put = (body: unknown, headers: Record<string, string> = {}) => ({
  method: "PUT",
  headers: { "content-type": "application/json", ...headers },
  body: JSON.stringify(body),
});

interface EventRow {
  action: string;
  actorKeyId: string | null;
  actorName: string;
  via: string;
  resourceType: string;
  resourceId: string;
  changes: string;
  requestId: string | null;
  ip: string | null;
  userAgent: string | null;
}

const eventsFor = (commentId: string) =>
  sql<EventRow>(app.databaseUrl, `SELECT * FROM "AuditEvent" WHERE "resourceId" = ? ORDER BY "id"`, [commentId]);

const keyId = async (name: string) =>
  (await sql<{ id: string }>(app.databaseUrl, `SELECT "id" FROM "ApiKey" WHERE "name" = ?`, [name]))[0]?.id;

describe("GET /api/v1/comments/:commentId", () => {
  it("answers the comment record with a strong ETag, and 304 to If-None-Match naming it", async () => {
    const { status, body, headers } = await app.json("/api/v1/comments/c-later");
    assert.equal(status, 200);
    assert.deepEqual(body.data, {
      id: "c-later",
      postId: "p-dark",
      commentDescription: "Any news?",
      pinned: false,
      pinnedAt: null,
      postedById: "u-zoe",
      createdAt: "2026-01-13T00:00:00.000Z",
      updatedAt: "2026-01-13T00:00:00.000Z",
    });
    const etag = headers.get("etag");
    assert.match(etag ?? "", /^"[^"]+"$/, "a strong tag");

    const cached = await app.request("/api/v1/comments/c-later", { headers: { "if-none-match": etag ?? "" } });
    assert.equal(cached.status, 304);
    assert.equal(cached.headers.get("etag"), etag);
    assert.equal(await cached.text(), "");
    const weak = await app.request("/api/v1/comments/c-later", { headers: { "if-none-match": `W/${etag}` } });
    assert.equal(weak.status, 304, "If-None-Match compares weakly");
    const other = await app.request("/api/v1/comments/c-later", { headers: { "if-none-match": '"v999"' } });
    assert.equal(other.status, 200);
  });

  it("has one revision while never changed: the comment itself, by its author", async () => {
    const { status, body } = await app.json("/api/v1/comments/c-later/revisions");
    assert.equal(status, 200);
    assert.deepEqual(body.data, [
      {
        version: 1,
        commentDescription: "Any news?",
        pinned: false,
        createdAt: "2026-01-13T00:00:00.000Z",
        actor: { keyId: null, name: "Zoë Ünal", via: "author" },
      },
    ]);
  });

  it("is a 404 for an unknown comment, and 401 before that without a key", async () => {
    assert.equal((await app.json("/api/v1/comments/nope")).status, 404);
    assert.equal((await app.json("/api/v1/comments/nope", { key: null })).status, 401);
  });
});

describe("PUT with If-Match", () => {
  it("applies when the version is current, and answers the new ETag", async () => {
    const { headers: first } = await app.json("/api/v1/comments/c-first");
    const etag = first.get("etag") ?? "";
    const edited = await app.json("/api/v1/comments/c-first", put({ commentDescription: "Version two" }, { "if-match": etag }));
    assert.equal(edited.status, 200);
    assert.equal(edited.body.data.commentDescription, "Version two");
    const next = edited.headers.get("etag");
    assert.ok(next && next !== etag, "the ETag moved");
    const read = await app.json("/api/v1/comments/c-first");
    assert.equal(read.headers.get("etag"), next, "GET gives the tag the PUT answered");
  });

  it("refuses a version no longer current with 412, the current record, and no change at all", async () => {
    const { headers } = await app.json("/api/v1/comments/c-first");
    const stale = headers.get("etag") ?? "";
    const moved = await app.json("/api/v1/comments/c-first", put({ commentDescription: "Version three" }, { "if-match": stale }));
    assert.equal(moved.status, 200);
    const eventsBefore = (await eventsFor("c-first")).length;
    const revisionsBefore = (await app.json("/api/v1/comments/c-first/revisions")).body.data.length;

    const refused = await app.json("/api/v1/comments/c-first", put({ commentDescription: "Lost update", pinComment: true }, { "if-match": stale }));
    assert.equal(refused.status, 412);
    assert.equal(refused.body.error.code, "precondition_failed");
    assert.deepEqual(refused.body.error.current, moved.body.data, "error.current is the record as it is now");
    assert.equal(refused.headers.get("etag"), moved.headers.get("etag"));

    const now = await app.json("/api/v1/comments/c-first");
    assert.deepEqual(now.body.data, moved.body.data, "nothing changed");
    assert.equal((await eventsFor("c-first")).length, eventsBefore, "no audit event");
    assert.equal((await app.json("/api/v1/comments/c-first/revisions")).body.data.length, revisionsBefore, "no revision");
  });

  it("takes * for any version and a list naming the current one; a weak or malformed tag never matches", async () => {
    const { headers } = await app.json("/api/v1/comments/c-csv");
    const etag = headers.get("etag") ?? "";
    assert.equal((await app.json("/api/v1/comments/c-csv", put({ pinComment: true }, { "if-match": "*" }))).status, 200);
    const { headers: now } = await app.json("/api/v1/comments/c-csv");
    const current = now.get("etag") ?? "";
    assert.equal((await app.json("/api/v1/comments/c-csv", put({ pinComment: false }, { "if-match": `${etag}, ${current}` }))).status, 200);
    const { headers: latest } = await app.json("/api/v1/comments/c-csv");
    const tag = latest.get("etag") ?? "";
    assert.equal((await app.json("/api/v1/comments/c-csv", put({ pinComment: true }, { "if-match": `W/${tag}` }))).status, 412);
    assert.equal((await app.json("/api/v1/comments/c-csv", put({ pinComment: true }, { "if-match": "garbage" }))).status, 412);
    assert.equal((await app.json("/api/v1/comments/nope", put({ pinComment: true }, { "if-match": tag }))).status, 404);
  });

  it("lets exactly one of 50 concurrent writers holding the same version through", async () => {
    const { headers } = await app.json("/api/v1/comments/c-later");
    const etag = headers.get("etag") ?? "";
    const before = (await app.json("/api/v1/comments/c-later/revisions")).body.data.length;
    const answers = await Promise.all(
      Array.from({ length: 50 }, (_, i) => app.json("/api/v1/comments/c-later", put({ commentDescription: `Writer ${i}` }, { "if-match": etag }))),
    );
    const statuses = answers.map((a) => a.status).sort();
    assert.equal(statuses.filter((s) => s === 200).length, 1, `statuses: ${statuses.join(",")}`);
    assert.equal(statuses.filter((s) => s === 412).length, 49);
    const winner = answers.find((a) => a.status === 200)?.body.data.commentDescription;
    const revisions = (await app.json("/api/v1/comments/c-later/revisions")).body.data;
    // The first change also records the original it replaced.
    assert.equal(revisions.length, before === 1 ? 2 : before + 1, "one change");
    assert.equal(revisions.at(-1).commentDescription, winner);
    const texts = (await eventsFor("c-later")).map((e) => JSON.parse(e.changes).commentDescription?.to);
    assert.deepEqual(texts.filter((t) => t?.startsWith("Writer")), [winner], "one audit event");
  });

  it("without If-Match, behaves as before: the change applies", async () => {
    const { status } = await app.json("/api/v1/comments/c-pinned", put({ commentDescription: "No condition" }));
    assert.equal(status, 200);
  });
});

describe("GET /api/v1/comments/:commentId/revisions", () => {
  it("lists the original first, then every change with who made it, how, and when", async () => {
    const writeKey = await keyId("test-write");
    const session = await app.json("/api/v1/comments/c-pinned/revisions");
    assert.equal(session.status, 200);
    const revisions = session.body.data;
    assert.equal(revisions[0].version, 1);
    assert.equal(revisions[0].commentDescription, "This is planned for Q2.");
    assert.equal(revisions[0].pinned, true);
    assert.equal(revisions[0].createdAt, "2026-01-12T06:00:00.000Z", "the original is dated by the imported updatedAt");
    assert.deepEqual(revisions[0].actor, { keyId: null, name: "Ada Lovelace", via: "author" });
    const last = revisions.at(-1);
    assert.equal(last.commentDescription, "No condition");
    assert.deepEqual(last.actor, { keyId: writeKey, name: "test-write", via: "api" });
    assert.deepEqual(
      revisions.map((r: { version: number }) => r.version),
      revisions.map((_: unknown, i: number) => i + 1),
      "versions 1, 2, ... oldest first",
    );
  });

  it("is a 404 for an unknown comment", async () => {
    assert.equal((await app.json("/api/v1/comments/nope/revisions")).status, 404);
  });
});

describe("the audit event of a change", () => {
  it("records the actor, the action, the fields before and after, and the request", async () => {
    const writeKey = await keyId("test-write");
    const { headers } = await app.json("/api/v1/comments/c-csv");
    const pinned = (await app.json("/api/v1/comments/c-csv")).body.data.pinned as boolean;
    const res = await app.json(
      "/api/v1/comments/c-csv",
      put({ pinComment: !pinned }, { "if-match": headers.get("etag") ?? "", "x-request-id": "audit-req-1", "user-agent": "audit-test/1.0" }),
    );
    assert.equal(res.status, 200);
    const event = (await eventsFor("c-csv")).at(-1);
    assert.ok(event);
    assert.equal(event.action, pinned ? "comment.unpinned" : "comment.pinned");
    assert.equal(event.resourceType, "comment");
    assert.equal(event.actorKeyId, writeKey);
    assert.equal(event.actorName, "test-write");
    assert.equal(event.via, "api");
    assert.deepEqual(JSON.parse(event.changes), { pinned: { from: pinned, to: !pinned } });
    assert.equal(event.requestId, "audit-req-1");
    assert.equal(event.userAgent, "audit-test/1.0");
    assert.ok(event.ip, "the client's address");

    await app.json("/api/v1/comments/c-csv", put({ commentDescription: "Text and pin", pinComment: pinned }));
    const both = (await eventsFor("c-csv")).at(-1);
    assert.equal(both?.action, "comment.updated", "a text change is an update, whatever else changed");
    assert.deepEqual(Object.keys(JSON.parse(both?.changes ?? "{}")).sort(), ["commentDescription", "pinned"]);
  });

  it("fails the change when its event cannot be written: the comment stays as it was", async () => {
    const trigger =
      app.engine === "sqlite"
        ? [`CREATE TRIGGER "refuse_audit" BEFORE INSERT ON "AuditEvent" BEGIN SELECT RAISE(ABORT, 'audit refused'); END`]
        : [
            `CREATE FUNCTION refuse_audit() RETURNS trigger AS $$ BEGIN RAISE EXCEPTION 'audit refused'; END $$ LANGUAGE plpgsql`,
            `CREATE TRIGGER "refuse_audit" BEFORE INSERT ON "AuditEvent" FOR EACH ROW EXECUTE FUNCTION refuse_audit()`,
          ];
    const before = await app.json("/api/v1/comments/c-later");
    const revisions = (await app.json("/api/v1/comments/c-later/revisions")).body.data.length;
    for (const statement of trigger) await sql(app.databaseUrl, statement);
    try {
      const res = await app.json("/api/v1/comments/c-later", put({ commentDescription: "Must not stick", pinComment: true }));
      assert.equal(res.status, 500);
      assert.equal(res.body.error.code, "internal_error");
    } finally {
      await sql(app.databaseUrl, `DROP TRIGGER "refuse_audit"${app.engine === "postgres" ? ` ON "AuditEvent"` : ""}`);
    }
    const afterwards = await app.json("/api/v1/comments/c-later");
    assert.deepEqual(afterwards.body.data, before.body.data);
    assert.equal(afterwards.headers.get("etag"), before.headers.get("etag"));
    assert.equal((await app.json("/api/v1/comments/c-later/revisions")).body.data.length, revisions);
  });
});

describe("ETags on one post and one changelog", () => {
  for (const path of ["/api/v1/posts/p-dark", "/api/v1/changelogs/cl-csv"]) {
    it(`${path} carries a strong ETag and answers If-None-Match with 304`, async () => {
      const first = await app.json(path);
      const etag = first.headers.get("etag") ?? "";
      assert.match(etag, /^"[^"]+"$/);
      assert.equal((await app.json(path)).headers.get("etag"), etag, "stable while nothing changes");
      const cached = await app.request(path, { headers: { "if-none-match": etag } });
      assert.equal(cached.status, 304);
      assert.equal(cached.headers.get("etag"), etag);
      assert.equal((await app.request(path, { headers: { "if-none-match": '"other"' } })).status, 200);
    });
  }

  it("a post's ETag changes when the post does", async () => {
    const { headers } = await app.json("/api/v1/posts/p-dark");
    await sql(app.databaseUrl, `UPDATE "Post" SET "upvotes" = "upvotes" + 1 WHERE "id" = ?`, ["p-dark"]);
    const after = await app.json("/api/v1/posts/p-dark");
    assert.notEqual(after.headers.get("etag"), headers.get("etag"));
  });
});
