import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startApp, type TestApp } from "../support/app";
import { dataset } from "../support/dataset";
import { sql, storedTime } from "../support/sql";

let app: TestApp;
before(async () => {
  app = await startApp({ dataset });
});
after(async () => {
  await app?.stop();
});

const form = (fields: Record<string, string>) => ({
  method: "PUT",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body: new URLSearchParams(fields).toString(),
});
const json = (body: unknown) => ({ method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });

/** The comment as the API lists it now, without writing to it. */
async function current(id: string, postId = "p-dark") {
  const { body } = await app.json(`/api/v1/posts/${postId}/comments?limit=100`);
  const found = body.data.find((c: { id: string }) => c.id === id);
  assert.ok(found, `${id} is listed under ${postId}`);
  return found;
}

describe("PUT /api/v1/comments/:commentId", () => {
  it("edits the text from a form body, trimmed, and answers the comment record", async () => {
    const { status, body, headers } = await app.json("/api/v1/comments/c-first", form({ commentDescription: "  Edited text  " }));
    assert.equal(status, 200);
    assert.equal(headers.get("content-type"), "application/json; charset=utf-8");
    assert.deepEqual(Object.keys(body.data).sort(), ["commentDescription", "createdAt", "id", "pinned", "pinnedAt", "postId", "postedById", "updatedAt"]);
    assert.equal(body.data.id, "c-first");
    assert.equal(body.data.postId, "p-dark");
    assert.equal(body.data.postedById, "u-grace");
    assert.equal(body.data.commentDescription, "Edited text");
    assert.equal(body.data.pinned, false);
    assert.equal(body.data.pinnedAt, null);
    assert.equal(body.data.createdAt, "2026-01-11T00:00:00.000Z");
    assert.ok(body.data.updatedAt > "2026-11-01", "updatedAt moved to now");
  });

  it("pins and unpins, stamping and clearing pinnedAt, from form strings in any case", async () => {
    const pinned = await app.json("/api/v1/comments/c-later", form({ pinComment: "TRUE" }));
    assert.equal(pinned.status, 200);
    assert.equal(pinned.body.data.pinned, true);
    assert.ok(pinned.body.data.pinnedAt);
    assert.equal(pinned.body.data.commentDescription, "Any news?");

    const again = await app.json("/api/v1/comments/c-later", form({ pinComment: "true" }));
    assert.equal(again.body.data.pinnedAt, pinned.body.data.pinnedAt, "pinning a pinned comment keeps pinnedAt");
    assert.ok(again.body.data.updatedAt > pinned.body.data.updatedAt, "but updatedAt moves");

    const unpinned = await app.json("/api/v1/comments/c-later", form({ pinComment: "false" }));
    assert.equal(unpinned.body.data.pinned, false);
    assert.equal(unpinned.body.data.pinnedAt, null);
  });

  it("leaves other comments of the post untouched when pinning one", async () => {
    await app.json("/api/v1/comments/c-csv", json({ pinComment: true }));
    const { body } = await app.json("/api/v1/comments/c-pinned", json({ pinComment: true }));
    assert.equal(body.data.pinned, true);
    assert.equal(body.data.pinnedAt, "2026-01-12T06:00:00.000Z", "the imported pinnedAt defaults to updatedAt and survives");
  });

  it("takes JSON with booleans or strings, and both fields at once", async () => {
    const { status, body } = await app.json("/api/v1/comments/c-csv", json({ commentDescription: "Both", pinComment: "False" }));
    assert.equal(status, 200);
    assert.equal(body.data.commentDescription, "Both");
    assert.equal(body.data.pinned, false);
    const charset = await app.json("/api/v1/comments/c-csv", {
      method: "PUT",
      headers: { "content-type": "application/json; charset=utf-8" },
      body: JSON.stringify({ commentDescription: "Ünïcödé ✓" }),
    });
    assert.equal(charset.body.data.commentDescription, "Ünïcödé ✓");
  });

  it("accepts 10,000 characters and ignores unknown fields", async () => {
    const { status, body } = await app.json("/api/v1/comments/c-csv", json({ commentDescription: "x".repeat(10_000), color: "red" }));
    assert.equal(status, 200);
    assert.equal(body.data.commentDescription.length, 10_000);
  });

  describe("refuses bad input and changes nothing", () => {
    const cases: { name: string; init: RequestInit; status: number; code: string; field?: string }[] = [
      { name: "no fields", init: form({}), status: 400, code: "invalid_request" },
      { name: "only unknown fields", init: json({ text: "hi" }), status: 400, code: "invalid_request" },
      { name: "empty text", init: form({ commentDescription: "" }), status: 400, code: "invalid_request", field: "commentDescription" },
      { name: "blank text", init: form({ commentDescription: "   " }), status: 400, code: "invalid_request", field: "commentDescription" },
      { name: "text over 10,000", init: json({ commentDescription: "x".repeat(10_001) }), status: 400, code: "invalid_request", field: "commentDescription" },
      { name: "text as a number", init: json({ commentDescription: 5 }), status: 400, code: "invalid_request", field: "commentDescription" },
      { name: "text as null", init: json({ commentDescription: null }), status: 400, code: "invalid_request", field: "commentDescription" },
      { name: "pin as yes", init: form({ pinComment: "yes" }), status: 400, code: "invalid_request", field: "pinComment" },
      { name: "pin as 1", init: json({ pinComment: 1 }), status: 400, code: "invalid_request", field: "pinComment" },
      { name: "pin empty", init: form({ pinComment: "" }), status: 400, code: "invalid_request", field: "pinComment" },
      { name: "good text, bad pin", init: form({ commentDescription: "changed", pinComment: "maybe" }), status: 400, code: "invalid_request", field: "pinComment" },
      { name: "a field twice", init: { method: "PUT", headers: { "content-type": "application/x-www-form-urlencoded" }, body: "commentDescription=a&commentDescription=b" }, status: 400, code: "invalid_request", field: "commentDescription" },
      { name: "malformed JSON", init: { method: "PUT", headers: { "content-type": "application/json" }, body: '{"commentDescription": "x"' }, status: 400, code: "invalid_request" },
      { name: "a JSON array", init: { method: "PUT", headers: { "content-type": "application/json" }, body: "[]" }, status: 400, code: "invalid_request" },
      { name: "text/plain", init: { method: "PUT", headers: { "content-type": "text/plain" }, body: "commentDescription=x" }, status: 415, code: "unsupported_media_type" },
      { name: "multipart", init: { method: "PUT", body: (() => { const f = new FormData(); f.set("commentDescription", "x"); return f; })() }, status: 415, code: "unsupported_media_type" },
      { name: "no content type", init: { method: "PUT", body: new Uint8Array([120]) }, status: 415, code: "unsupported_media_type" },
      { name: "a body over 64 KiB", init: form({ commentDescription: "x".repeat(70_000) }), status: 413, code: "payload_too_large" },
      { name: "a JSON body over 64 KiB", init: json({ commentDescription: "y".repeat(65_536) }), status: 413, code: "payload_too_large" },
    ];
    for (const c of cases) {
      it(`${c.name}: ${c.status} ${c.code}`, async () => {
        const before = await current("c-pinned");
        const { status, body, headers } = await app.json("/api/v1/comments/c-pinned", c.init);
        assert.equal(status, c.status, JSON.stringify(body));
        assert.equal(body.error.code, c.code);
        assert.equal(body.error.requestId, headers.get("x-request-id"));
        if (c.field) assert.ok(body.error.details.some((d: { field: string }) => d.field === c.field), JSON.stringify(body.error));
        assert.deepEqual(await current("c-pinned"), before, "a refused update changes nothing, updatedAt included");
      });
    }
  });

  it("answers 404 for an unknown comment, after validating the body", async () => {
    const missing = await app.json("/api/v1/comments/c-nope", form({ pinComment: "true" }));
    assert.equal(missing.status, 404);
    assert.equal(missing.body.error.code, "not_found");
    const invalid = await app.json("/api/v1/comments/c-nope", form({ pinComment: "nope" }));
    assert.equal(invalid.status, 400);
  });

  it("refuses a read-only key with 403 and changes nothing", async () => {
    const before = await current("c-pinned");
    const { status, body } = await app.json("/api/v1/comments/c-pinned", { ...form({ commentDescription: "hijacked" }), key: app.keys.read });
    assert.equal(status, 403);
    assert.equal(body.error.code, "forbidden");
    assert.deepEqual(await current("c-pinned"), before);
  });

  it("keeps two concurrent edits whole: the last one wins, never a mix", async () => {
    const texts = Array.from({ length: 8 }, (_, i) => `concurrent ${i}`);
    const results = await Promise.all(texts.map((t) => app.json("/api/v1/comments/c-first", json({ commentDescription: t, pinComment: true }))));
    assert.ok(results.every((r) => r.status === 200));
    const final = await app.json("/api/v1/comments/c-first", json({ pinComment: true }));
    assert.ok(texts.includes(final.body.data.commentDescription));
  });

  it("dates a change by the clock, or a millisecond after the comment's own last change when that is later", async () => {
    // A comment last changed ahead of this clock (another server's, set an hour fast): its next
    // change still moves updatedAt on, by a millisecond, and no other comment's date follows it.
    const ahead = new Date(Date.now() + 3_600_000);
    await sql(app.databaseUrl, `UPDATE "Comment" SET "updatedAt" = ? WHERE "id" = 'c-csv'`, [storedTime(app.databaseUrl, ahead)]);
    const changed = await app.json("/api/v1/comments/c-csv", json({ commentDescription: "Changed after a fast clock" }));
    assert.equal(changed.status, 200);
    assert.equal(changed.body.data.updatedAt, new Date(ahead.getTime() + 1).toISOString());

    const asked = Date.now();
    const other = await app.json("/api/v1/comments/c-later", json({ commentDescription: "Dated by the clock" }));
    const answered = Date.now();
    const at = Date.parse(other.body.data.updatedAt);
    assert.ok(at >= asked && at <= answered, `${other.body.data.updatedAt} lies between the request and its answer`);
  });
});
