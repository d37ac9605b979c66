import assert from "node:assert/strict";
import { once } from "node:events";
import http from "node:http";
import net from "node:net";
import { after, before, describe, it } from "node:test";
import Database from "better-sqlite3";
import pg from "pg";
import { sqlitePath } from "../../lib/env";
import { startApp, type TestApp, testEngine } from "../support/app";
import { dataset } from "../support/dataset";
import { startTcpProxy, type TcpProxy } from "../support/tcp-proxy";

// What the service does when the database is locked by another writer, down, or frozen, and
// that no request ever holds up the others: /api/health is the canary, answered by the same
// event loop as every request.

const LOCK_BUDGET_MS = 1500;
const form = (body: string): RequestInit => ({
  method: "PUT",
  headers: { "content-type": "application/x-www-form-urlencoded" },
  body,
});

async function commentOf(app: TestApp, id: string) {
  const { body } = await app.json("/api/v1/posts/p-dark/comments?limit=100");
  return (body.data as { id: string }[]).find((c) => c.id === id);
}

/**
 * Opens a connection to `app`, writes `parts` with `gapMs` between them, and gives back what came
 * back and how long after the first write the server closed the connection (Infinity: still open
 * after 15 s, when it stops waiting).
 */
async function exchange(app: TestApp, parts: string[], gapMs = 0): Promise<{ answer: string; closedAfterMs: number }> {
  const { port, hostname } = new URL(app.url);
  const socket = net.connect(Number(port), hostname);
  await once(socket, "connect");
  let answer = "";
  socket.on("data", (d) => (answer += d));
  socket.on("error", () => {});
  const started = performance.now();
  const closed = new Promise<number>((resolve) => {
    socket.on("close", () => resolve(performance.now() - started));
    setTimeout(() => resolve(Number.POSITIVE_INFINITY), 15_000).unref();
  });
  for (const [i, part] of parts.entries()) {
    if (i) await new Promise((r) => setTimeout(r, gapMs));
    if (!socket.destroyed) socket.write(part);
  }
  const closedAfterMs = await closed;
  socket.destroy();
  return { answer, closedAfterMs };
}

/** Sends raw bytes in one write, for an answer after which the server closes the connection. */
async function raw(app: TestApp, request: string): Promise<{ status: number; headers: string; body: string }> {
  const { answer } = await exchange(app, [request]);
  const [head = "", body = ""] = answer.split("\r\n\r\n");
  return { status: Number(head.split(" ")[1]), headers: head, body };
}

/** Polls /api/health every 25 ms while `during` runs; returns the slowest answer, in ms. */
async function slowestHealth(app: TestApp, during: Promise<unknown>): Promise<number> {
  let done = false;
  let slowest = 0;
  const watcher = (async () => {
    while (!done) {
      const started = performance.now();
      const res = await fetch(`${app.url}/api/health`);
      await res.text();
      slowest = Math.max(slowest, performance.now() - started);
      await new Promise((r) => setTimeout(r, 25));
    }
  })();
  await during;
  done = true;
  await watcher;
  return slowest;
}

/** Holds the lock another writer would hold, until release() (SQLite: the database's write lock; PostgreSQL: the comment's row). */
async function holdWriteLock(app: TestApp): Promise<() => Promise<void>> {
  if (app.engine === "sqlite") {
    const other = new Database(sqlitePath(app.databaseUrl));
    other.exec(`BEGIN IMMEDIATE; UPDATE "Board" SET "name" = "name" WHERE 0;`);
    return async () => {
      other.exec("COMMIT");
      other.close();
    };
  }
  const other = new pg.Client({ connectionString: app.databaseUrl });
  await other.connect();
  await other.query(`BEGIN; SELECT 1 FROM "Comment" WHERE "id" = 'c-first' FOR UPDATE`);
  return async () => {
    await other.query("COMMIT");
    await other.end();
  };
}

describe("another writer holds the lock", () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dataset, env: { DATABASE_LOCK_TIMEOUT_MS: String(LOCK_BUDGET_MS) } });
  });
  after(async () => {
    await app?.stop();
  });

  it("reads and health go on unhindered; a write answers 503 with Retry-After after its budget and changes nothing", async () => {
    const before = await commentOf(app, "c-first");
    const release = await holdWriteLock(app);
    try {
      const work = (async () => {
        const started = performance.now();
        const put = await app.json("/api/v1/comments/c-first", form("commentDescription=While+locked"));
        const putMs = performance.now() - started;
        const reads = await Promise.all([
          app.json("/api/v1/posts?search=dark"),
          app.json("/api/v1/posts?search=qz"),
          app.json("/api/v1/changelogs"),
          app.json("/api/v1/posts/p-dark/comments"),
        ]);
        return { put, putMs, reads };
      })();
      const slowest = await slowestHealth(app, work);
      const { put, putMs, reads } = await work;
      assert.equal(put.status, 503, JSON.stringify(put.body));
      assert.equal(put.body.error.code, "service_unavailable");
      assert.ok(Number(put.headers.get("retry-after")) >= 1, "Retry-After");
      assert.ok(putMs >= LOCK_BUDGET_MS * 0.9, `the write waited its budget (${Math.round(putMs)} ms)`);
      for (const read of reads) assert.equal(read.status, 200);
      // Before the fix, the server slept on the event loop for the whole budget.
      assert.ok(slowest < 500, `/api/health took ${Math.round(slowest)} ms while a write waited for the lock`);
    } finally {
      await release();
    }
    assert.deepEqual(await commentOf(app, "c-first"), before, "the refused write changed nothing");
    const retried = await app.json("/api/v1/comments/c-first", form("commentDescription=After+the+lock"));
    assert.equal(retried.status, 200);
    assert.equal(retried.body.data.commentDescription, "After the lock");
  });

  it("recording a key's last use never waits for the lock", async () => {
    const created = await app.cli(["keys", "create", "--name", "fresh", "--scopes", "read"]);
    const key = created.stdout.trim();
    const release = await holdWriteLock(app);
    try {
      if (app.engine === "postgres") {
        // A row lock does not stand in the way of ApiKey; lock that table's rows as well.
        const other = new pg.Client({ connectionString: app.databaseUrl });
        await other.connect();
        await other.query(`BEGIN; LOCK TABLE "ApiKey" IN ROW EXCLUSIVE MODE; SELECT 1 FROM "ApiKey" FOR UPDATE`);
        try {
          const started = performance.now();
          assert.equal((await app.json("/api/v1/posts", { key })).status, 200);
          assert.ok(performance.now() - started < LOCK_BUDGET_MS / 2, "the first request of a key did not wait");
        } finally {
          await other.query("ROLLBACK");
          await other.end();
        }
      } else {
        const started = performance.now();
        assert.equal((await app.json("/api/v1/posts", { key })).status, 200);
        assert.ok(performance.now() - started < LOCK_BUDGET_MS / 2, "the first request of a key did not wait");
      }
    } finally {
      await release();
    }
  });
});

describe("slow searches never hold up other requests", () => {
  let app: TestApp;
  before(async () => {
    app = await startApp();
    // Enough posts that a search of short terms (which no trigram index serves) reads for a
    // while (~80 ms each): before reads left the event loop, twelve of these stalled every
    // request for about a second.
    const seeded = await app.cli(["seed", "--posts", "40000"]);
    assert.equal(seeded.code, 0, seeded.stderr);
  });
  after(async () => {
    await app?.stop();
  });

  it("twelve short-term searches in flight leave /api/health fast", async () => {
    const terms = ["qz", "xj", "zq", "jx", "q z", "k q", "vv", "wq", "zx", "qj", "xq", "jz"];
    const searches = Promise.all(terms.map((term) => app.json(`/api/v1/posts?search=${encodeURIComponent(term)}&sortBy=top`)));
    const slowest = await slowestHealth(app, searches);
    for (const res of await searches) assert.equal(res.status, 200, JSON.stringify(res.body));
    // Generous against a busy test machine; the stall this guards against is seconds.
    assert.ok(slowest < 500, `/api/health took ${Math.round(slowest)} ms while searches ran`);
  });
});

describe("how long the server waits for a client: a request arriving slowly, a connection idle", () => {
  const REQUEST_TIMEOUT_MS = 1500;
  const KEEP_ALIVE_TIMEOUT_MS = 4500;
  let app: TestApp;
  before(async () => {
    app = await startApp({
      dataset,
      env: { REQUEST_TIMEOUT_MS: String(REQUEST_TIMEOUT_MS), KEEP_ALIVE_TIMEOUT_MS: String(KEEP_ALIVE_TIMEOUT_MS) },
    });
  });
  after(async () => {
    await app?.stop();
  });

  it("headers that never end: the connection is dropped after REQUEST_TIMEOUT_MS, and other requests go on", async () => {
    const slow = exchange(app, [`GET /api/v1/posts HTTP/1.1\r\nHost: x\r\n`, "X-Slow: 1\r\n"], 200);
    const meanwhile = await app.json("/api/v1/posts?limit=1");
    assert.equal(meanwhile.status, 200);
    const { answer, closedAfterMs } = await slow;
    assert.ok(closedAfterMs >= REQUEST_TIMEOUT_MS * 0.9, `dropped after ${Math.round(closedAfterMs)} ms, before its time`);
    // Node looks every second. Under its own limit (60 s) the connection would still be open
    // when exchange stops waiting, at 15 s.
    assert.ok(closedAfterMs < REQUEST_TIMEOUT_MS + 5000, `still open after ${Math.round(closedAfterMs)} ms`);
    assert.equal(answer, "", "no answer to a request that never arrived");
  });

  it("a body that stops coming: the connection is dropped and the comment is unchanged", async () => {
    const before = await commentOf(app, "c-first");
    const body = "commentDescription=Never+arrives";
    const head = [
      "PUT /api/v1/comments/c-first HTTP/1.1",
      "Host: x",
      `Authorization: Bearer ${app.keys.write}`,
      "Content-Type: application/x-www-form-urlencoded",
      `Content-Length: ${body.length}`,
      "",
      "",
    ].join("\r\n");
    const { answer, closedAfterMs } = await exchange(app, [head, body.slice(0, 10)], 100);
    assert.ok(Number.isFinite(closedAfterMs) && closedAfterMs < REQUEST_TIMEOUT_MS + 5000, `still open after ${Math.round(closedAfterMs)} ms`);
    assert.equal(answer, "", "no answer to a body that never arrived");
    assert.deepEqual(await commentOf(app, "c-first"), before, "the request that never arrived changed nothing");
    assert.doesNotMatch(app.output(), /PUT \/api\/v1\/comments\/c-first failed|internal_error/, "the dropped request logged no failure");
  });

  it("a request sent in pieces within its time is answered", async () => {
    const { answer } = await exchange(
      app,
      [`GET /api/v1/posts?limit=1 HTTP/1.1\r\nHost: x\r\n`, `Authorization: Bearer ${app.keys.read}\r\n`, "Connection: close\r\n\r\n"],
      300,
    );
    assert.match(answer, /^HTTP\/1\.1 200 /);
  });

  it("a connection kept alive waits KEEP_ALIVE_TIMEOUT_MS for its next request, longer than REQUEST_TIMEOUT_MS, then is closed", async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const get = () =>
      new Promise<{ status: number; keepAlive: string; reused: boolean; socket: net.Socket }>((resolve, reject) => {
        const req = http.get(`${app.url}/api/v1/posts?limit=1`, { agent, headers: { authorization: `Bearer ${app.keys.read}` } }, (res) => {
          const { socket } = res;
          res.resume();
          res.on("end", () => resolve({ status: res.statusCode ?? 0, keepAlive: String(res.headers["keep-alive"]), reused: req.reusedSocket, socket }));
        });
        req.on("error", reject);
      });
    try {
      const first = await get();
      assert.equal(first.status, 200);
      assert.equal(first.keepAlive, "timeout=4", "the client is told how long the server keeps the connection");
      // Idle past REQUEST_TIMEOUT_MS (Node looks every second), which counts only while a request
      // arrives, and well within KEEP_ALIVE_TIMEOUT_MS, so that a slow machine does not close it first.
      await new Promise((r) => setTimeout(r, REQUEST_TIMEOUT_MS + 1200));
      const second = await get();
      assert.equal(second.status, 200);
      assert.ok(second.reused && second.socket === first.socket, "the second request went on the same connection");
      const idleFrom = performance.now();
      const closedAfterMs = await new Promise<number>((resolve) => {
        second.socket.once("close", () => resolve(performance.now() - idleFrom));
        setTimeout(() => resolve(Number.POSITIVE_INFINITY), 15_000).unref();
      });
      assert.ok(closedAfterMs >= KEEP_ALIVE_TIMEOUT_MS * 0.9, `closed after ${Math.round(closedAfterMs)} ms idle, before its time`);
      // Node's own 5 s is told apart by the header above (timeout=5).
      assert.ok(closedAfterMs < KEEP_ALIVE_TIMEOUT_MS + 1200, `still open after ${Math.round(closedAfterMs)} ms idle`);
    } finally {
      agent.destroy();
    }
  });
});

describe("every answer under /api/v1 is the API's JSON", () => {
  let app: TestApp;
  before(async () => {
    app = await startApp({ dataset });
  });
  after(async () => {
    await app?.stop();
  });

  /** Any method, through node:http (fetch refuses TRACE). */
  function send(method: string, path: string, key: string | null): Promise<{ status: number; headers: http.IncomingHttpHeaders; body: any }> {
    return new Promise((resolve, reject) => {
      const req = http.request(`${app.url}${path}`, { method, headers: key ? { authorization: `Bearer ${key}` } : {} }, (res) => {
        let text = "";
        res.on("data", (d) => (text += d));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: JSON.parse(text) }));
      });
      req.on("error", reject);
      req.end();
    });
  }

  for (const method of ["TRACE", "PROPFIND", "MKCOL", "LOCK", "PURGE"]) {
    it(`${method}: 401 without a key, then 405 with Allow, in JSON`, async () => {
      const anonymous = await send(method, "/api/v1/posts", null);
      assert.equal(anonymous.status, 401);
      assert.equal(anonymous.body.error.code, "unauthorized");
      const known = await send(method, "/api/v1/posts", app.keys.read);
      assert.equal(known.status, 405);
      assert.equal(known.headers["content-type"], "application/json; charset=utf-8");
      assert.equal(known.body.error.code, "method_not_allowed");
      assert.equal(known.headers.allow, "GET, HEAD, OPTIONS");
      assert.match(known.body.error.message, new RegExp(method));
      const unknown = await send(method, "/api/v1/nowhere", app.keys.read);
      assert.equal(unknown.status, 404);
      assert.equal(unknown.body.error.code, "not_found");
    });
  }

  it("OPTIONS still answers 204 with Allow", async () => {
    const res = await app.request("/api/v1/comments/c-first", { method: "OPTIONS", key: null });
    assert.equal(res.status, 204);
    assert.equal(res.headers.get("allow"), "GET, PUT, HEAD, OPTIONS");
  });

  it("a trailing slash serves the same resource, after authentication", async () => {
    const anonymous = await app.json("/api/v1/posts/?limit=2", { key: null });
    assert.equal(anonymous.status, 401);
    const slash = await app.json("/api/v1/posts/?limit=2");
    const plain = await app.json("/api/v1/posts?limit=2");
    assert.equal(slash.status, 200);
    assert.deepEqual(slash.body, plain.body);
    assert.equal((await app.json("/api/v1/changelogs/cl-dark/")).status, 200);
  });

  it("a URL over 8 KiB is a JSON 414", async () => {
    const { status, body, headers } = await app.json(`/api/v1/posts?search=${"a".repeat(9000)}`);
    assert.equal(status, 414);
    assert.equal(body.error.code, "uri_too_long");
    assert.equal(headers.get("content-type"), "application/json; charset=utf-8");
  });

  it("headers over 32 KiB are a JSON 431", async () => {
    const res = await raw(app, `GET /api/v1/posts HTTP/1.1\r\nHost: x\r\nX-Big: ${"b".repeat(40_000)}\r\n\r\n`);
    assert.equal(res.status, 431);
    assert.equal(JSON.parse(res.body).error.code, "request_header_fields_too_large");
    assert.match(res.headers, /content-type: application\/json; charset=utf-8/i);
  });

  it("a route's answer leaves in one write: its headers with its body", async () => {
    // Two writes (headers, then body) reach a reader on loopback as two reads; one write of a
    // few hundred bytes arrives as one.
    const { port, hostname } = new URL(app.url);
    const socket = net.connect(Number(port), hostname);
    await once(socket, "connect");
    try {
      for (const path of ["/api/health", "/api/v1/posts?limit=1"]) {
        const reads: string[] = [];
        // Until the chunked body's last chunk (both answers are chunked), or 5 s.
        const done = new Promise<void>((resolve, reject) => {
          const timer = setTimeout(() => reject(new Error(`${path}: no whole answer in 5 s: ${JSON.stringify(reads)}`)), 5000);
          socket.on("data", function onData(chunk) {
            reads.push(chunk.toString());
            if (/\r\n0\r\n\r\n$/.test(reads.join(""))) {
              socket.off("data", onData);
              clearTimeout(timer);
              resolve();
            }
          });
        });
        socket.write(`GET ${path} HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${app.keys.read}\r\n\r\n`);
        await done;
        assert.match(reads[0] ?? "", /^HTTP\/1\.1 200 /);
        assert.equal(reads.length, 1, `${path} arrived in ${reads.length} reads: ${JSON.stringify(reads.map((r) => r.slice(0, 40)))}`);
      }
    } finally {
      socket.destroy();
    }
  });

  it("a request Node cannot parse is a JSON 400", async () => {
    const res = await raw(app, "BREW /api/v1/posts HTTP/1.1\r\nHost: x\r\n\r\n");
    assert.equal(res.status, 400);
    assert.equal(JSON.parse(res.body).error.code, "invalid_request");
  });

  it("a client cannot name its own address or method to the routes", async () => {
    const res = await app.json("/api/v1/posts", { headers: { "x-feedback-method": "TRACE", "x-feedback-client-ip": "10.9.9.9" } });
    assert.equal(res.status, 200);
  });
});

describe("readiness", () => {
  let app: TestApp;
  before(async () => {
    app = await startApp();
  });
  after(async () => {
    await app?.stop();
  });

  it("/api/ready answers 200 while the database answers; /api/health needs no database", async () => {
    const ready = await app.json("/api/ready", { key: null });
    assert.equal(ready.status, 200);
    assert.deepEqual(ready.body, { status: "ready" });
    assert.equal((await app.json("/api/health", { key: null })).status, 200);
  });
});

if (testEngine() === "postgres") {
  describe("PostgreSQL down or frozen", () => {
    let app: TestApp;
    let proxy: TcpProxy;
    const statementTimeoutMs = 1500;
    before(async () => {
      const admin = new URL(process.env.TEST_POSTGRES_URL as string);
      proxy = await startTcpProxy(admin.hostname, Number(admin.port || 5432));
    });
    after(async () => {
      await app?.stop().catch(() => undefined);
      await proxy?.close();
    });

    it("stopped: 503 with Retry-After, /api/ready 503, health 200; recovers by itself", async () => {
      app = await startProxied(proxy, statementTimeoutMs);
      assert.equal((await app.json("/api/v1/posts")).status, 200);
      await proxy.down();
      for (const path of ["/api/v1/posts", "/api/v1/changelogs/cl-dark", "/api/v1/posts/p-dark/comments"]) {
        const res = await app.json(path);
        assert.equal(res.status, 503, `${path}: ${JSON.stringify(res.body)}`);
        assert.equal(res.body.error.code, "service_unavailable");
        assert.ok(Number(res.headers.get("retry-after")) >= 1);
      }
      const put = await app.json("/api/v1/comments/c-first", form("pinComment=true"));
      assert.equal(put.status, 503);
      assert.equal((await app.json("/api/ready", { key: null })).status, 503);
      assert.equal((await app.json("/api/health", { key: null })).status, 200);
      await proxy.up();
      let status = 0;
      for (let i = 0; i < 40 && status !== 200; i++) {
        status = (await app.json("/api/v1/posts")).status;
        if (status !== 200) await new Promise((r) => setTimeout(r, 250));
      }
      assert.equal(status, 200, "the service recovered once the database came back");
      await app.stop();
    });

    it("frozen (a network partition): 503 after the statement timeout and a margin, not a hang", async () => {
      app = await startProxied(proxy, statementTimeoutMs);
      assert.equal((await app.json("/api/v1/posts")).status, 200);
      proxy.freeze();
      try {
        const started = performance.now();
        const res = await app.json("/api/v1/posts?search=frozen");
        const took = performance.now() - started;
        assert.equal(res.status, 503, JSON.stringify(res.body));
        assert.ok(took < statementTimeoutMs + 6000, `answered after ${Math.round(took)} ms`);
        const slowest = await slowestHealth(app, app.json("/api/v1/changelogs"));
        assert.ok(slowest < 500, `health took ${Math.round(slowest)} ms`);
      } finally {
        proxy.thaw();
        await app.stop();
      }
    });
  });
}

/** An app on PostgreSQL whose server reaches the database through `proxy`. */
async function startProxied(proxy: TcpProxy, statementTimeoutMs: number): Promise<TestApp> {
  const seedApp = await startApp({ dataset });
  // Keep the database: serve it from a second server that goes through the proxy.
  const app = await startApp({
    sameDatabaseAs: seedApp,
    serverDatabaseUrl: proxy.via(seedApp.databaseUrl),
    env: { DATABASE_STATEMENT_TIMEOUT_MS: String(statementTimeoutMs), DATABASE_CONNECT_TIMEOUT_MS: "1000" },
  });
  return {
    ...app,
    async stop() {
      await app.stop();
      await seedApp.stop();
    },
  };
}
