import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { checkingText, type KeyCheck, pendingKeyCheck, settle, withKeyCheck } from "./key-check";

describe("a read request's key, checked by its reads", () => {
  it("is pending only inside the request's work, and each request has its own", async () => {
    assert.equal(pendingKeyCheck(), undefined);
    const a: KeyCheck = { keyId: "key_a", scopes: "read" };
    const b: KeyCheck = { keyId: "key_b", scopes: "read" };
    const seen = await Promise.all([
      withKeyCheck(a, async () => {
        await new Promise((resolve) => setTimeout(resolve, 5));
        return pendingKeyCheck();
      }),
      withKeyCheck(b, async () => pendingKeyCheck()),
    ]);
    assert.deepEqual(seen, [a, b]);
    assert.equal(pendingKeyCheck(), undefined);
  });

  it("asks for the key's scopes in the statement's last column, by the next parameter", () => {
    const text = checkingText(`SELECT "id" FROM "Post" WHERE "boardId" = $1 ORDER BY "id" LIMIT $2`, 2);
    assert.equal(
      text,
      `SELECT "checked".*, (SELECT "scopes" FROM "ApiKey" WHERE "id" = $3 AND "revokedAt" IS NULL) AS "keyScopes" FROM (SELECT "id" FROM "Post" WHERE "boardId" = $1 ORDER BY "id" LIMIT $2\n) "checked"`,
    );
  });

  it("is settled by the first read that returns rows, and the column leaves every row", async () => {
    const check: KeyCheck = { keyId: "key_a", scopes: "read,write" };
    await withKeyCheck(check, async () => {
      settle(check, []);
      assert.equal(pendingKeyCheck(), check, "no rows: still pending");
      const rows = [
        { id: "p1", keyScopes: "read,write" },
        { id: "p2", keyScopes: "read,write" },
      ];
      settle(check, rows);
      assert.deepEqual(rows, [{ id: "p1" }, { id: "p2" }]);
      assert.equal(check.seen, "unchanged");
      assert.equal(pendingKeyCheck(), undefined, "settled: later reads carry nothing");
      settle(check, [{ id: "p3", keyScopes: null }]);
      assert.equal(check.seen, "unchanged", "a read after the first does not undo it");
    });
  });

  for (const [what, stored] of [
    ["revoked or gone", null],
    ["other scopes", "read"],
  ] as const) {
    it(`sees the key changed: ${what}`, () => {
      const check: KeyCheck = { keyId: "key_a", scopes: "read,write" };
      settle(check, [{ id: "p1", keyScopes: stored }]);
      assert.equal(check.seen, "changed");
    });
  }
});
