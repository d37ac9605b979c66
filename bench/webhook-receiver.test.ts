import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { createDatabase, type ThrowawayDatabase } from "../tests/support/app";
import { sql, storedTime } from "../tests/support/sql";
import { otherEnabledEndpoints, subscribe, unsubscribe } from "./webhook-receiver";

// The bench refuses to run its PUTs while another endpoint is enabled: each would get an event
// from every PUT, the PUT "without webhooks" included. On a real, migrated SQLite database.
describe("the bench's check for other enabled webhook endpoints", () => {
  let database: ThrowawayDatabase;
  before(async () => {
    database = await createDatabase("sqlite");
  });
  after(async () => {
    await database?.drop();
  });

  const addEndpoint = async (id: string, enabled: boolean) => {
    const now = storedTime(database.url, new Date());
    await sql(
      database.url,
      `INSERT INTO "WebhookEndpoint" ("id", "url", "description", "events", "enabled", "secret", "createdAt", "updatedAt")
       VALUES (?, 'http://127.0.0.1:9/hook', '', 'comment.updated', ?, 'whsec_test', ?, ?)`,
      [id, enabled ? 1 : 0, now, now],
    );
  };

  it("finds none in a database with no endpoint, or only the bench's own, enabled or not", async () => {
    assert.deepEqual(await otherEnabledEndpoints(database.url), []);
    await subscribe(database.url, "http://127.0.0.1:9/hook");
    assert.deepEqual(await otherEnabledEndpoints(database.url), []);
    await unsubscribe(database.url);
    assert.deepEqual(await otherEnabledEndpoints(database.url), []);
  });

  it("names every other endpoint that is enabled, and none that is disabled", async () => {
    await addEndpoint("whk_stray_b", true);
    await addEndpoint("whk_stray_a", true);
    await addEndpoint("whk_off", false);
    assert.deepEqual(await otherEnabledEndpoints(database.url), ["whk_stray_a", "whk_stray_b"]);
    await sql(database.url, `UPDATE "WebhookEndpoint" SET "enabled" = 0 WHERE "id" LIKE 'whk_stray%'`);
    assert.deepEqual(await otherEnabledEndpoints(database.url), []);
  });
});
