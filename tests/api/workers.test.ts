import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { dispatchersStarted, dispatchersWaiting, freePort, logLines, startApp, type TestApp } from "../support/app";
import { dataset } from "../support/dataset";
import { childrenOf, isDispatcher, nicenessOf, runsServer } from "../support/processes";
import { type Receiver, startReceiver } from "../support/receiver";
import { sql } from "../support/sql";
import { scriptArgs, serverArgs } from "../../lib/server-command";

// WEB_CONCURRENCY=2: a primary and two workers behind one port. Which process served a
// request is read from the operating system, not from anything the server tells a client:
// the connection's socket (found in /proc/net/tcp by its two ports) is an open file of exactly
// one worker.

interface Answer {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
  /** The process that held the server's end of the connection. */
  pid: number;
}

/** The primary's children that serve: every one that runs server.ts but the webhook dispatcher. */
const workersOf = (primary: number) => childrenOf(primary).filter((pid) => runsServer(pid) && !isDispatcher(pid));

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));


/** The socket inode of the TCP connection between these two local ports (IPv4). */
function socketInode(localPort: number, remotePort: number): string | undefined {
  const hexPort = (port: number) => port.toString(16).toUpperCase().padStart(4, "0");
  for (const line of fs.readFileSync("/proc/net/tcp", "utf8").split("\n").slice(1)) {
    const fields = line.trim().split(/\s+/);
    if (fields[1]?.endsWith(`:${hexPort(localPort)}`) && fields[2]?.endsWith(`:${hexPort(remotePort)}`)) return fields[9];
  }
  return undefined;
}

function holderOf(inode: string, pids: number[]): number | undefined {
  return pids.find((pid) => {
    try {
      return fs.readdirSync(`/proc/${pid}/fd`).some((fd) => {
        try {
          return fs.readlinkSync(`/proc/${pid}/fd/${fd}`) === `socket:[${inode}]`;
        } catch {
          return false;
        }
      });
    } catch {
      return false;
    }
  });
}

/**
 * One request on a connection of its own, kept open until the process holding the server's end
 * has been found among the server's children.
 */
async function requestOnOwnConnection(app: TestApp, pathname: string, headers: Record<string, string> = {}): Promise<Answer> {
  const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  try {
    const { status, headers: responseHeaders, body, clientPort } = await new Promise<{
      status: number;
      headers: http.IncomingHttpHeaders;
      body: string;
      clientPort: number;
    }>((resolve, reject) => {
      const req = http.get(`${app.url}${pathname}`, { agent, headers }, (res) => {
        const clientPort = res.socket.localPort ?? 0;
        let body = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => (body += chunk));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body, clientPort }));
      });
      req.on("error", reject);
    });
    const inode = socketInode(Number(new URL(app.url).port), clientPort);
    assert.ok(inode, `the connection from port ${clientPort} is in /proc/net/tcp`);
    const pid = holderOf(inode, childrenOf(app.server.pid ?? 0));
    assert.ok(pid, `a worker holds the connection from port ${clientPort}`);
    return { status, headers: responseHeaders, body, pid };
  } finally {
    agent.destroy();
  }
}

/** A process's state line from /proc (running, sleeping, zombie…), for failure messages. */
function stateOf(pid: number): string {
  try {
    return /^State:\s*(.*)$/m.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"))?.[1] ?? "unknown";
  } catch {
    return "gone";
  }
}

async function eventually<T>(app: TestApp, what: string | (() => string), attempt: () => T | undefined | Promise<T | undefined>): Promise<T> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    const value = await attempt();
    if (value !== undefined) return value;
    await sleep(100);
  }
  const described = typeof what === "string" ? what : what();
  throw new Error(`timed out waiting for ${described}; the server's last output:\n${app.output().slice(-4000)}`);
}

describe("WEB_CONCURRENCY=2", () => {
  let app: TestApp;
  let workers: number[];
  let dispatcher: number;
  let receiver: Receiver;

  before(async () => {
    receiver = await startReceiver();
    // Polls an hour apart: an event that arrives within seconds came by a nudge.
    const webhooks = { WEBHOOK_POLL_MS: "3600000", WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_ALLOW_HTTP: "true" };
    app = await startApp({ dataset, env: { WEB_CONCURRENCY: "2", RATE_LIMIT_PER_MINUTE: "5", ...webhooks } });
    // startApp returns once one worker answers; the primary says when both listen.
    await eventually(app, "both workers to listen", () => (/with 2 workers/.test(app.output()) ? true : undefined));
    workers = workersOf(app.server.pid ?? 0);
    // Logged once its priority is set; a look at /proc before that could catch it at the primary's.
    dispatcher = await eventually(app, "the webhook dispatcher", () => dispatchersStarted(app)[0]);
  });
  after(async () => {
    await app?.stop();
    await receiver?.close();
  });

  it("serves requests from two worker processes, neither of them the primary", async () => {
    assert.equal(workers.length, 2, `the primary has two workers: ${workers}`);
    const answers = [];
    for (let i = 0; i < 6; i++) answers.push(await requestOnOwnConnection(app, "/api/health"));
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 200, 200, 200, 200],
    );
    assert.deepEqual([...new Set(answers.map((a) => a.pid))].sort((a, b) => a - b), workers);
  });

  it("runs the webhook dispatcher as a third child, at a lower CPU priority, and a worker's change reaches it", async () => {
    // tsx may run esbuild beside them, to compile a file its cache lacks.
    assert.deepEqual(childrenOf(app.server.pid ?? 0).filter((pid) => runsServer(pid) || isDispatcher(pid)), [...workers, dispatcher].sort((a, b) => a - b));
    assert.equal(nicenessOf(dispatcher), 10);
    assert.ok(workers.every((pid) => nicenessOf(pid) === nicenessOf(app.server.pid ?? 0)), "the workers keep the primary's priority");

    // The endpoint comes after the dispatcher's first pass, which was its last for an hour.
    await eventually(app, "the dispatcher's first pass", () => (dispatchersWaiting(app).includes(dispatcher) ? true : undefined));
    await promisify(execFile)(process.execPath, [...scriptArgs("tests/support/webhook-admin.ts"), "create", `${receiver.url}/workers`, "comment.updated"], {
      cwd: path.resolve(import.meta.dirname, "..", ".."),
      env: { ...process.env, DATABASE_URL: app.databaseUrl, WEBHOOK_ALLOW_PRIVATE: "true", WEBHOOK_ALLOW_HTTP: "true" },
    });
    const edit = await app.json("/api/v1/comments/c-first", {
      method: "PUT",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "commentDescription=Sent+through+the+primary",
    });
    assert.equal(edit.status, 200);
    const [delivery] = await receiver.waitFor("/workers", 1, 10_000);
    assert.match(delivery?.body ?? "", /Sent through the primary/);
  });

  it("counts a key's requests once across the workers: the sixth is a 429 whichever worker answers", async () => {
    const key = (await app.cli(["keys", "create", "--name", "limited"])).stdout.trim();
    const answers = [];
    for (let i = 0; i < 9; i++) answers.push(await requestOnOwnConnection(app, "/api/v1/posts", { authorization: `Bearer ${key}` }));
    assert.deepEqual(
      answers.map((a) => a.status),
      [200, 200, 200, 200, 200, 429, 429, 429, 429],
    );
    // Counted separately, each worker would start again at 4 and allow ten in all.
    assert.deepEqual(
      answers.slice(0, 5).map((a) => Number(a.headers["ratelimit-remaining"])),
      [4, 3, 2, 1, 0],
    );
    assert.equal(new Set(answers.slice(0, 5).map((a) => a.pid)).size, 2, "both workers counted some of the first five");
    assert.equal(new Set(answers.slice(5).map((a) => a.pid)).size, 2, "both workers refused some");
    // Another key has its own count.
    assert.equal((await requestOnOwnConnection(app, "/api/v1/posts", { authorization: `Bearer ${app.keys.read}` })).status, 200);
  });

  it("keeps answering when a worker is killed, and starts a replacement that serves", async () => {
    const [victim, survivor] = workers;
    assert.ok(victim && survivor);
    process.kill(victim, "SIGKILL");
    const restart = await eventually(app, () => `the primary to log the dead worker (${victim}: ${stateOf(victim)})`, () =>
      logLines(app, "A worker exited unexpectedly; starting another").find((line) => line.pid === victim),
    );
    assert.equal(restart.signal, "SIGKILL");
    assert.equal(restart.level, "warn");
    for (let i = 0; i < 4; i++) assert.equal((await requestOnOwnConnection(app, "/api/health")).status, 200);

    const replacement = await eventually(app, "a replacement worker", () =>
      workersOf(app.server.pid ?? 0).find((pid) => pid !== survivor && pid !== victim),
    );
    assert.ok(!childrenOf(app.server.pid ?? 0).includes(victim), "the killed worker is gone");
    await eventually(app, "the replacement to serve a request", async () => {
      const answer = await requestOnOwnConnection(app, "/api/health");
      assert.equal(answer.status, 200);
      return answer.pid === replacement ? true : undefined;
    });
    workers = workersOf(app.server.pid ?? 0);
    assert.deepEqual(workers, [survivor, replacement].sort((a, b) => a - b));
  });

  it("stops every process on SIGTERM to the primary, exiting 0 within a few seconds", async () => {
    const primary = app.server;
    const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
      primary.once("exit", (code, signal) => resolve({ code, signal })),
    );
    const started = Date.now();
    primary.kill("SIGTERM");
    const outcome = await Promise.race([exited, sleep(10_000).then(() => undefined)]);
    assert.deepEqual(outcome, { code: 0, signal: null });
    assert.ok(Date.now() - started < 5_000, `stopped in ${Date.now() - started} ms`);
    for (const pid of workers) assert.ok(!fs.existsSync(`/proc/${pid}`), `worker ${pid} has exited`);
    await eventually(app, "the webhook dispatcher to exit", () => (fs.existsSync(`/proc/${dispatcher}`) ? undefined : true));
    assert.equal(logLines(app, "A worker exited unexpectedly; starting another").length, 1, "no worker is restarted while stopping");
  });
});

describe("WEB_CONCURRENCY=2, what one worker reads for all", () => {
  let app: TestApp;

  before(async () => {
    app = await startApp({ env: { WEB_CONCURRENCY: "2" } });
    await eventually(app, "both workers to listen", () => (/with 2 workers/.test(app.output()) ? true : undefined));
    const seeded = await app.cli(["seed", "--posts", "3000"]);
    assert.equal(seeded.code, 0, seeded.stderr);
  });
  after(async () => {
    await app?.stop();
  });

  it("makes one pass over the order for both workers: one remembers the positions, the other is sent them, and both page with them", async () => {
    const auth = { authorization: `Bearer ${app.keys.read}` };
    const latest = (await sql<{ id: string }>(app.databaseUrl, `SELECT "id" FROM "Post" ORDER BY "createdAt" DESC, "id" DESC`)).map((r) => r.id);
    assert.equal(latest.length, 3000);
    // Pages past the positions' spacing (1,000 rows), where a page seeks to one.
    const pages = [60, 126];
    const page = async (n: number) => {
      const answer = await requestOnOwnConnection(app, `/api/v1/posts?limit=20&page=${n}`, auth);
      assert.equal(answer.status, 200, answer.body);
      const ids = (JSON.parse(answer.body) as { data: { id: string }[] }).data.map((p) => p.id);
      assert.deepEqual(ids, latest.slice((n - 1) * 20, n * 20), `page ${n} from worker ${answer.pid}`);
      return answer.pid;
    };
    const made = () => logLines(app, "remembered positions in a sort order");
    const taken = () => logLines(app, "positions in a sort order taken from another worker");

    // New connections go to the workers in turn: the first deep page in either starts the pass.
    await eventually(app, "a worker to be sent the other's positions", async () => {
      for (const n of pages) await page(n);
      return taken().length ? true : undefined;
    });
    const workers = workersOf(app.server.pid ?? 0);
    assert.equal(made().length, 1, "one pass over the order, in one worker");
    assert.equal(taken().length, 1);
    const [builder, receiver] = [made()[0], taken()[0]];
    assert.deepEqual([Number(builder?.pid), Number(receiver?.pid)].sort((a, b) => a - b), workers, "each worker in one of the two roles");
    assert.deepEqual([receiver?.positions, receiver?.version], [builder?.positions, builder?.version]);
    assert.equal(builder?.positions, 3);

    // Both workers now seek to the positions, with the rows OFFSET gives, and neither makes another pass.
    const served = new Set<number>();
    for (let i = 0; i < 6; i++) for (const n of pages) served.add(await page(n));
    assert.deepEqual([...served].sort((a, b) => a - b), workers);
    assert.equal(made().length, 1);
  });

  it("reads a table's vocabulary in one worker and sends it to the other (SQLite; PostgreSQL keeps none)", async () => {
    const auth = { authorization: `Bearer ${app.keys.read}` };
    // Short terms, which the vocabulary serves once read; rows are tested before that.
    const terms = ["ok", "e", "zq"];
    const expected = new Map<string, number>();
    for (const term of terms) {
      const [row] = await sql<{ n: number }>(app.databaseUrl, `SELECT COUNT(*) AS "n" FROM "Post" WHERE "searchText" LIKE ?`, [`%${term}%`]);
      expected.set(term, Math.min(Number(row?.n), 10_000));
    }
    const search = async (term: string) => {
      const answer = await requestOnOwnConnection(app, `/api/v1/posts?search=${term}&limit=5`, auth);
      assert.equal(answer.status, 200, answer.body);
      assert.equal((JSON.parse(answer.body) as { pagination: { total: number } }).pagination.total, expected.get(term), `"${term}" from worker ${answer.pid}`);
      return answer.pid;
    };
    // Of the table as the seed left it: the empty table the workers started with had its vocabulary read as well (lib/sqlite/warm-up.ts).
    const [now] = await sql<{ version: number }>(app.databaseUrl, `SELECT "version" FROM "DataVersion" WHERE "name" = 'Post'`);
    const atNow = (line: Record<string, unknown>) => line.table === "Post" && Number(line.version) === Number(now?.version);
    const read = () => logLines(app, "read the search index's vocabulary").filter(atNow);
    const taken = () => logLines(app, "search index's vocabulary taken from another worker").filter(atNow);
    const served = new Set<number>();
    if (app.engine === "postgres") {
      for (let i = 0; i < 4; i++) for (const term of terms) served.add(await search(term));
      assert.deepEqual([read().length, taken().length], [0, 0]);
    } else {
      await eventually(app, "a worker to be sent the other's vocabulary", async () => {
        for (const term of terms) await search(term);
        return taken().length ? true : undefined;
      });
      assert.equal(read().length, 1, "one read of the vocabulary, in one worker");
      assert.equal(taken().length, 1);
      const [reader, receiver] = [read()[0], taken()[0]];
      assert.deepEqual([Number(reader?.pid), Number(receiver?.pid)].sort((a, b) => a - b), workersOf(app.server.pid ?? 0));
      assert.deepEqual([receiver?.trigrams, receiver?.words, receiver?.version], [reader?.trigrams, reader?.words, reader?.version]);
      // Both workers answer from it, and neither reads it again.
      for (let i = 0; i < 4; i++) for (const term of terms) served.add(await search(term));
      assert.equal(read().length, 1);
    }
    assert.deepEqual([...served].sort((a, b) => a - b), workersOf(app.server.pid ?? 0));
  });
});

/** Runs server.ts until it exits by itself (at most 60 s), for starts that must fail. */
async function serverExit(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const root = path.resolve(import.meta.dirname, "..", "..");
  const child = spawn(process.execPath, serverArgs(root), {
    cwd: root,
    env: { ...process.env, NODE_ENV: "production", HOSTNAME: "127.0.0.1", PORT: String(await freePort()), LOG_FORMAT: "json", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  child.stdout.on("data", (d) => (output += d));
  child.stderr.on("data", (d) => (output += d));
  const timer = setTimeout(() => child.kill("SIGKILL"), 60_000);
  const code = await new Promise<number | null>((resolve) => child.once("exit", (c) => resolve(c)));
  clearTimeout(timer);
  return { code, output };
}

describe("WEB_CONCURRENCY at start", () => {
  for (const value of ["0", "two", "1.5"]) {
    it(`refuses WEB_CONCURRENCY=${value} with a message naming it`, async () => {
      const { code, output } = await serverExit({ WEB_CONCURRENCY: value });
      assert.equal(code, 1);
      assert.match(output, /Invalid environment: WEB_CONCURRENCY: must be/);
    });
  }

  it("stops, exit code 1, when no worker can start, instead of starting them again forever", async () => {
    const { code, output } = await serverExit({ WEB_CONCURRENCY: "2", NEXT_DIST_DIR: ".next-missing-for-workers-test" });
    assert.equal(code, 1, output);
    assert.match(output, /A worker exited before the server could start; stopping/);
    assert.doesNotMatch(output, /starting another/);
  });
});
