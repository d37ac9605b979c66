import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startApp, type TestApp } from "../support/app";
import { dataset } from "../support/dataset";
import { eventually } from "../support/eventually";
import { type RedisServer, redisServerPath, startRedis } from "../support/redis";
import { sql } from "../support/sql";

// Rate limits: per key once authenticated, per client address before (no key, a wrong or
// revoked key, a failed sign-in), the IETF RateLimit headers on every limited answer, and
// counters shared by every process through the database (PostgreSQL) or Redis.

const ci = ["true", "1"].includes((process.env.CI ?? "").toLowerCase());

function limits(headers: Headers) {
  return {
    limit: Number(headers.get("ratelimit-limit")),
    remaining: Number(headers.get("ratelimit-remaining")),
    reset: Number(headers.get("ratelimit-reset")),
  };
}

const signIn = (app: TestApp, key: string, headers: Record<string, string> = {}) =>
  app.request("/api/session", {
    method: "POST",
    key: null,
    headers: { "content-type": "application/json", origin: app.url, ...headers },
    body: JSON.stringify({ key }),
  });

describe("rate limits in one process", () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dataset, env: { RATE_LIMIT_PER_MINUTE: "5", RATE_LIMIT_ANONYMOUS_PER_MINUTE: "3" } });
  });
  after(async () => {
    await app?.stop();
  });

  it("counts every answer of a key (200, 404, 405, 400) and sends the headers on each; the sixth is a 429", async () => {
    const key = (await app.cli(["keys", "create", "--name", "limited"])).stdout.trim();
    const answers = [
      await app.request("/api/v1/posts", { key }),
      await app.request("/api/v1/nowhere", { key }),
      await app.request("/api/v1/posts", { key, method: "DELETE" }),
      await app.request("/api/v1/posts?limit=0", { key }),
      await app.request("/api/v1/changelogs/cl-dark", { key }),
    ];
    assert.deepEqual(
      answers.map((r) => r.status),
      [200, 404, 405, 400, 200],
    );
    answers.forEach((res, i) => {
      const { limit, remaining, reset } = limits(res.headers);
      assert.equal(limit, 5);
      assert.equal(remaining, 4 - i, `remaining after request ${i + 1}`);
      assert.ok(reset >= 1 && reset <= 60, `reset ${reset}`);
    });
    const over = await app.request("/api/v1/posts", { key });
    assert.equal(over.status, 429);
    const body = await over.json();
    assert.equal(body.error.code, "rate_limited");
    assert.equal(limits(over.headers).remaining, 0);
    assert.ok(Number(over.headers.get("retry-after")) >= 1);
    assert.equal(over.headers.get("retry-after"), over.headers.get("ratelimit-reset"));
    // Another key is not held to this one's count.
    assert.equal((await app.request("/api/v1/posts", { key: app.keys.read })).status, 200);
  });

  it("limits requests without a valid key per address, and failed sign-ins with them", async () => {
    // Behind no trusted proxy, X-Forwarded-For is the client's own word and changes nothing.
    const spoof = (n: number) => ({ "x-forwarded-for": `203.0.113.${n}` });
    const first = await app.request("/api/v1/posts", { key: null, headers: spoof(1) });
    assert.equal(first.status, 401);
    assert.equal(limits(first.headers).limit, 3);
    assert.equal(limits(first.headers).remaining, 2);
    assert.equal((await app.request("/api/v1/posts", { key: `fbk_${"x".repeat(43)}`, headers: spoof(2) })).status, 401);
    const failedSignIn = await signIn(app, `fbk_${"y".repeat(43)}`, spoof(3));
    assert.equal(failedSignIn.status, 401);
    assert.equal(limits(failedSignIn.headers).remaining, 0);
    const over = await app.request("/api/v1/posts", { key: null, headers: spoof(4) });
    assert.equal(over.status, 429);
    assert.equal((await over.json()).error.code, "rate_limited");
    assert.ok(Number(over.headers.get("retry-after")) >= 1);
    const signInOver = await signIn(app, `fbk_${"z".repeat(43)}`);
    assert.equal(signInOver.status, 429);
    // A valid key is held to its own limit, not the address's.
    assert.equal((await app.request("/api/v1/posts", { key: app.keys.write })).status, 200);
  });
});

describe("behind a trusted proxy", () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ env: { RATE_LIMIT_ANONYMOUS_PER_MINUTE: "2", TRUST_PROXY: "true" } });
  });
  after(async () => {
    await app?.stop();
  });

  it("holds each forwarded address to its own limit (the address the proxy saw: the last one)", async () => {
    const from = (chain: string) => app.request("/api/v1/posts", { key: null, headers: { "x-forwarded-for": chain } });
    assert.equal((await from("198.51.100.7")).status, 401);
    assert.equal((await from("1.2.3.4, 198.51.100.7")).status, 401);
    assert.equal((await from("5.6.7.8, 198.51.100.7")).status, 429, "a forged first hop does not buy a new limit");
    assert.equal((await from("198.51.100.8")).status, 401, "another client has its own limit");
  });
});

/** Two server processes on one database and one store: a limit is shared, not doubled. */
async function assertSharedBetween(first: TestApp, second: TestApp): Promise<void> {
  const key = (await first.cli(["keys", "create", "--name", "shared"])).stdout.trim();
  const statuses: number[] = [];
  for (let i = 0; i < 6; i++) statuses.push((await (i % 2 ? second : first).request("/api/v1/posts?limit=1", { key })).status);
  assert.deepEqual(statuses, [200, 200, 200, 200, 429, 429]);
}

describe("shared by every process", () => {
  it("through the database on PostgreSQL (per process on SQLite)", async (t) => {
    const env = { RATE_LIMIT_PER_MINUTE: "4" };
    const first = await startApp({ env });
    const second = await startApp({ sameDatabaseAs: first, env });
    try {
      if (first.engine === "postgres") {
        await assertSharedBetween(first, second);
        // Counters need not outlive a crash: the table writes no WAL (its migration says why).
        const [table] = await sql<{ relpersistence: string }>(first.databaseUrl, `SELECT "relpersistence" FROM "pg_class" WHERE "relname" = 'RateLimit'`);
        assert.equal(table?.relpersistence, "u");
      } else {
        // SQLite is served by one process; each process counts for itself, which is documented.
        const key = (await first.cli(["keys", "create", "--name", "per-process"])).stdout.trim();
        for (let i = 0; i < 4; i++) assert.equal((await first.request("/api/v1/posts?limit=1", { key })).status, 200);
        assert.equal((await first.request("/api/v1/posts?limit=1", { key })).status, 429);
        assert.equal((await second.request("/api/v1/posts?limit=1", { key })).status, 200);
        t.diagnostic("SQLite: counters are per process");
      }
    } finally {
      await second.stop();
      await first.stop();
    }
  });

  it("far from the limit, each request is counted once: Remaining falls by one a request, and the database ends with all of them and no more", async (t) => {
    const app = await startApp({ env: { RATE_LIMIT_PER_MINUTE: "1000" } });
    try {
      const key = (await app.cli(["keys", "create", "--name", "batched"])).stdout.trim();
      const remaining: number[] = [];
      for (let i = 0; i < 30; i++) remaining.push(limits((await app.request("/api/v1/posts?limit=1", { key })).headers).remaining);
      assert.deepEqual(
        remaining,
        Array.from({ length: 30 }, (_, i) => 999 - i),
      );
      if (app.engine !== "postgres") {
        t.diagnostic("SQLite: one process counts in its memory, nothing to batch");
        return;
      }
      const stored = async () => (await sql<{ points: number }>(app.databaseUrl, `SELECT "points" FROM "RateLimit" WHERE "key" LIKE 'key:%'`))[0]?.points;
      await eventually(async () => (await stored()) === 30, "the database to hold all 30 requests");
      await new Promise((resolve) => setTimeout(resolve, 300));
      assert.equal(await stored(), 30, "and no more");
    } finally {
      await app.stop();
    }
  });

  it("through Redis when REDIS_URL is set", async (t) => {
    const binary = redisServerPath();
    if (!binary) {
      if (ci) assert.fail("redis-server is missing: apt-get install redis-server");
      console.error(`\n${"!".repeat(72)}\n!!! SKIPPED the Redis rate-limit test: redis-server is missing (apt-get install redis-server)\n${"!".repeat(72)}`);
      t.skip("redis-server is missing");
      return;
    }
    let redis: RedisServer | undefined;
    let first: TestApp | undefined;
    let second: TestApp | undefined;
    try {
      redis = await startRedis(binary);
      const env = { RATE_LIMIT_PER_MINUTE: "4", REDIS_URL: redis.url };
      first = await startApp({ env });
      second = await startApp({ sameDatabaseAs: first, env });
      await assertSharedBetween(first, second);
      // Redis gone: each process falls back to its own memory rather than failing requests.
      await redis.stop();
      const key = first.keys.read;
      assert.equal((await first.request("/api/v1/posts?limit=1", { key })).status, 200);
    } finally {
      await second?.stop();
      await first?.stop();
      await redis?.stop();
    }
  });
});
