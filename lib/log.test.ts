import assert from "node:assert/strict";
import { spawnSync } from "node:child_process";
import path from "node:path";
import { describe, it } from "node:test";

// The logger reads LOG_FORMAT and LOG_LEVEL once, so each case runs in a process of its own and
// reads what it wrote to stderr.

const root = path.resolve(import.meta.dirname, "..");

function logsOf(env: Record<string, string>, script: string): string[] {
  const run = spawnSync(process.execPath, ["--import", "tsx", "-e", `const log = require("./lib/log.ts");\n${script}`], {
    cwd: root,
    env: { ...process.env, ...env },
    encoding: "utf8",
  });
  assert.equal(run.status, 0, run.stderr);
  assert.equal(run.stdout, "", "logs never go to stdout");
  return run.stderr.split("\n").filter(Boolean);
}

const request = `log.logRequest({ requestId: "r-1", method: "PUT", path: "/api/v1/comments/c-1", status: 403, durationMs: 2.5, keyId: "key_abc" });`;

describe("LOG_FORMAT=json", () => {
  it("writes a request as one JSON object on one line, with every field", () => {
    const lines = logsOf({ LOG_FORMAT: "json", LOG_LEVEL: "info" }, request);
    assert.equal(lines.length, 1);
    const record = JSON.parse(lines[0] as string);
    assert.deepEqual(
      { ...record, time: undefined },
      { level: "info", time: undefined, msg: "request", requestId: "r-1", method: "PUT", path: "/api/v1/comments/c-1", status: 403, durationMs: 2.5, keyId: "key_abc" },
    );
    assert.ok(!Number.isNaN(Date.parse(record.time)), record.time);
  });

  it("keeps an error's stack inside its one line", () => {
    const lines = logsOf({ LOG_FORMAT: "json", LOG_LEVEL: "info" }, `log.logError("GET /x failed", new Error("disk on fire"), "r-2");`);
    assert.equal(lines.length, 1);
    const record = JSON.parse(lines[0] as string);
    assert.equal(record.level, "error");
    assert.equal(record.requestId, "r-2");
    assert.equal(record.err.message, "disk on fire");
    assert.match(record.err.stack, /^Error: disk on fire\n/);
  });

  it("redacts authorization and cookie values if a caller ever logs headers", () => {
    const lines = logsOf(
      { LOG_FORMAT: "json", LOG_LEVEL: "info" },
      `log.log("warn", "odd request", { headers: { authorization: "Bearer fbk_secret", cookie: "feedback_session=abc" } });`,
    );
    assert.deepEqual(JSON.parse(lines[0] as string).headers, { authorization: "[redacted]", cookie: "[redacted]" });
    assert.doesNotMatch(lines.join("\n"), /fbk_secret|abc/);
  });
});

describe("LOG_FORMAT=text", () => {
  it("writes a request as one readable line", () => {
    const lines = logsOf({ LOG_FORMAT: "text", LOG_LEVEL: "info" }, request);
    assert.equal(lines.length, 1);
    assert.match(
      lines[0] as string,
      /^\d{4}-\d\d-\d\dT[\d:.]+Z info request requestId=r-1 method=PUT path=\/api\/v1\/comments\/c-1 status=403 durationMs=2\.5 keyId=key_abc$/,
    );
  });

  it("quotes values with spaces, so a line still splits into fields", () => {
    const lines = logsOf({ LOG_FORMAT: "text", LOG_LEVEL: "info" }, `log.log("info", "SIGTERM: closing", { reason: "two words" });`);
    assert.match(lines[0] as string, / info SIGTERM: closing reason="two words"$/);
  });
});

it("says whether request lines are written, so the API can skip making them above info", () => {
  const gate = `log.log("error", String(log.requestsLogged()));`;
  for (const [level, written] of [["debug", "true"], ["info", "true"], ["warn", "false"], ["error", "false"]] as const) {
    const lines = logsOf({ LOG_FORMAT: "json", LOG_LEVEL: level }, gate);
    assert.deepEqual(lines.map((l) => JSON.parse(l).msg), [written], level);
  }
});

it("LOG_LEVEL drops what is below it", () => {
  const lines = logsOf({ LOG_FORMAT: "json", LOG_LEVEL: "warn" }, `${request} log.log("debug", "quiet"); log.log("warn", "loud");`);
  assert.deepEqual(
    lines.map((l) => JSON.parse(l).msg),
    ["loud"],
  );
});
