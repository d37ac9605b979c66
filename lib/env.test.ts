import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parseEnv } from "./env";

// The settings this turn added: their defaults, and a clear refusal of a bad value.

describe("environment: audit, webhook and event-loop settings", () => {
  it("defaults: keep the trail forever, retry on the documented schedule, https and public addresses only", () => {
    const config = parseEnv({});
    assert.equal(config.AUDIT_RETENTION_DAYS, undefined);
    assert.deepEqual(config.WEBHOOK_RETRY_DELAYS_MS, [30_000, 120_000, 600_000, 3_600_000, 21_600_000, 86_400_000]);
    assert.equal(config.WEBHOOK_TIMEOUT_MS, 10_000);
    assert.equal(config.WEBHOOK_LOG_DAYS, 30);
    assert.equal(config.WEBHOOK_ALLOW_HTTP, false);
    assert.equal(config.WEBHOOK_ALLOW_PRIVATE, false);
    assert.equal(config.WEBHOOK_DISPATCH, true);
    assert.equal(config.CRON_SECRET, undefined);
    assert.equal(config.EVENT_LOOP_WARN_MS, 50);
    assert.equal(config.SQLITE_MMAP_MB, 2047, "as much as SQLite maps");
    assert.equal(config.REQUEST_TIMEOUT_MS, 30_000, "a whole request, headers and body, within 30 s");
    assert.equal(config.KEEP_ALIVE_TIMEOUT_MS, 5000, "Node's own");
  });

  it("reads the values as written", () => {
    const config = parseEnv({
      AUDIT_RETENTION_DAYS: "90",
      WEBHOOK_RETRY_DELAYS_MS: " 100, 200 ",
      WEBHOOK_ALLOW_HTTP: "TRUE",
      WEBHOOK_ALLOW_PRIVATE: "yes",
      CRON_SECRET: " s3cret ",
    });
    assert.equal(config.AUDIT_RETENTION_DAYS, 90);
    assert.deepEqual(config.WEBHOOK_RETRY_DELAYS_MS, [100, 200]);
    assert.equal(config.WEBHOOK_ALLOW_HTTP, true);
    assert.equal(config.WEBHOOK_ALLOW_PRIVATE, true);
    assert.equal(config.CRON_SECRET, "s3cret");
    assert.equal(parseEnv({ AUDIT_RETENTION_DAYS: "" }).AUDIT_RETENTION_DAYS, undefined, "empty is unset");
    assert.equal(parseEnv({ EVENT_LOOP_WARN_MS: "0" }).EVENT_LOOP_WARN_MS, 0, "0 turns the warning off");
    assert.equal(parseEnv({ SQLITE_MMAP_MB: "0" }).SQLITE_MMAP_MB, 0, "0 maps nothing");
    assert.equal(parseEnv({ KEEP_ALIVE_TIMEOUT_MS: "65000" }).KEEP_ALIVE_TIMEOUT_MS, 65_000);
  });

  for (const [name, value] of [
    ["AUDIT_RETENTION_DAYS", "0"],
    ["AUDIT_RETENTION_DAYS", "abc"],
    ["AUDIT_RETENTION_DAYS", "1.5"],
    ["WEBHOOK_RETRY_DELAYS_MS", "abc"],
    ["WEBHOOK_RETRY_DELAYS_MS", "100,,200"],
    ["WEBHOOK_RETRY_DELAYS_MS", "-1"],
    ["WEBHOOK_TIMEOUT_MS", "5"],
    ["WEBHOOK_POLL_MS", "0"],
    ["WEBHOOK_LOG_DAYS", "0"],
    ["EVENT_LOOP_WARN_MS", "-1"],
    ["EVENT_LOOP_WARN_MS", "abc"],
    ["EVENT_LOOP_WARN_MS", "2.5"],
    ["EVENT_LOOP_WARN_MS", "60001"],
    ["SQLITE_MMAP_MB", "-1"],
    ["SQLITE_MMAP_MB", "2048"],
    ["SQLITE_MMAP_MB", "lots"],
    ["REQUEST_TIMEOUT_MS", "0"],
    ["REQUEST_TIMEOUT_MS", "999"],
    ["REQUEST_TIMEOUT_MS", "600001"],
    ["KEEP_ALIVE_TIMEOUT_MS", "0"],
    ["KEEP_ALIVE_TIMEOUT_MS", "3600001"],
    ["KEEP_ALIVE_TIMEOUT_MS", "forever"],
  ] as const) {
    it(`refuses ${name}=${value}, naming it`, () => {
      assert.throws(() => parseEnv({ [name]: value }), (error: Error) => error.message.includes(name));
    });
  }
});
