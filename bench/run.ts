// `npm run bench -- [options]`: seeds a database, builds and starts the production server, and
// drives each scenario with autocannon beside the framework floor (GET /api/health, a route
// handler of this app that does no database work) at the same worker count.
//
// Two kinds of scenario. Varied ones (bench/workload.ts) send a different request each time,
// drawn from a space of distinct requests large enough that no cache sees a repeat in a run;
// they are the figures that count. Cache-warm ones repeat one request for the whole run, so
// every cache answers them; they show a ceiling, not the service.
//
// Options:
//   --posts N            posts to seed (default 1000000; comments 2x, changelogs N/20)
//   --engine E           sqlite, postgres or both (default sqlite)
//   --duration S         seconds per run (default 10), after a 2-second warm-up
//   --connections LIST   concurrency levels (default 16)
//   --workers LIST       server processes: the app runs with WEB_CONCURRENCY=<n> for each (default 1)
//   --scenarios KIND     varied, warm or all (default all)
//   --only LIST          scenario names to run, of either kind (default: all of --scenarios)
//   --seed N             the varied workload's seed (default 1): the same seed sends the same requests
//   --baseline           also run bench/baseline-server.ts on the cache-warm scenarios (off by default)
//   --port P             first of two ports to use (default 3300)
//   --pg-url URL         an admin URL that may create databases (default: scripts/postgres-ci.sh's)
//   --skip-build         reuse the bench build in .next-bench if it was built from this tree's code
//                        (bench/source.ts); refused otherwise
//   --other-build        with --skip-build, reuse it even if it was built from other code (an A/B
//                        of two builds); the report says which code it was
//   --settle S           seconds each server is given after its start, before its first run, with
//                        one sampled request of each GET scenario a second (default 45; 0: none)
//   --rounds N           rounds of the two PUT scenarios, alternated A B B A ... (default 3)
//   --cpu-prof DIR       write a V8 CPU profile of the app server to DIR when it stops, one per
//                        process, the webhook dispatcher's included
//
// Data is kept under bench/.data/ (SQLite) or in the database feedback_bench_<posts>
// (PostgreSQL) and reused when it was fully seeded before. Results go to
// bench/results/<engine>-<posts>-<date>.md (-2, -3… for a later run of the same day).
import { execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import {
  type CpuReading,
  cpuSpent,
  type Kind,
  type Load,
  load,
  type Measure,
  nodeProcesses,
  noteProcesses,
  postgresProcesses,
  processTree,
  readCpu,
  readHolds,
  type Scenario,
  type Server,
} from "./measure";
import { type Context, CPU_HEADER, cpuText, errorText, f0, heldText, ms, n0, report, reportFile, type Row, type Settled, TARGET_CONNECTIONS } from "./report";
import { type BenchReceiver, otherEnabledEndpoints, startBenchReceiver, subscribe, unsubscribe } from "./webhook-receiver";
import { describeStamp, readStamp, sourceStamp, writeStamp } from "./source";
import { BOARD_IDS, type Draw, draw, type Universe, VARIED_SCENARIOS } from "./workload";
import { EVENT_LOOP_HELD } from "../lib/event-loop";
import { sqlitePath } from "../lib/env";
import { scriptArgs, serverArgs } from "../lib/server-command";

const root = path.resolve(import.meta.dirname, "..");
const dataDir = path.join(root, "bench", ".data");
const resultsDir = path.join(root, "bench", "results");
const distDir = ".next-bench";
/** Requests of each varied scenario checked for a 200 before any load. */
const SAMPLES = 5;
const WARM_UP_SECONDS = 2;

const { values: options } = parseArgs({
  options: {
    posts: { type: "string", default: "1000000" },
    engine: { type: "string", default: "sqlite" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: String(TARGET_CONNECTIONS) },
    workers: { type: "string", default: "1" },
    scenarios: { type: "string", default: "all" },
    only: { type: "string" },
    seed: { type: "string", default: "1" },
    baseline: { type: "boolean", default: false },
    port: { type: "string", default: "3300" },
    "pg-url": { type: "string", default: "postgresql://feedback:feedback@127.0.0.1:5432/postgres" },
    "skip-build": { type: "boolean", default: false },
    "other-build": { type: "boolean", default: false },
    rounds: { type: "string", default: "3" },
    settle: { type: "string", default: "45" },
    "cpu-prof": { type: "string" },
  },
});

const wholeNumbers = (list: string, what: string) => {
  const numbers = list.split(",").map(Number);
  if (!numbers.every((n) => Number.isInteger(n) && n >= 1)) throw new Error(`${what} must be a comma-separated list of whole numbers from 1`);
  return numbers;
};
const posts = Number(options.posts);
const duration = Number(options.duration);
const connectionLevels = wholeNumbers(options.connections, "--connections");
const workerCounts = wholeNumbers(options.workers, "--workers");
const seed = Number(options.seed);
const pairRounds = Number(options.rounds);
const settleSeconds = Number(options.settle);
const basePort = Number(options.port);
const engines = options.engine === "both" ? (["sqlite", "postgres"] as const) : [options.engine as "sqlite" | "postgres"];
if (!Number.isInteger(posts) || posts < 1000) throw new Error("--posts must be a whole number of at least 1000");
if (!(duration > 0)) throw new Error("--duration must be a positive number of seconds");
if (!Number.isInteger(seed)) throw new Error("--seed must be a whole number");
if (!Number.isInteger(pairRounds) || pairRounds < 1) throw new Error("--rounds must be a whole number from 1");
if (!Number.isInteger(settleSeconds) || settleSeconds < 0) throw new Error("--settle must be a whole number of seconds from 0");
if (!engines.every((e) => e === "sqlite" || e === "postgres")) throw new Error("--engine must be sqlite, postgres or both");
if (!["varied", "warm", "all"].includes(options.scenarios)) throw new Error("--scenarios must be varied, warm or all");
if (options["other-build"] && !options["skip-build"]) throw new Error("--other-build only goes with --skip-build (it allows reusing a build of other code)");

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** One request, sent for the whole run. */
const repeated = (path: string): Draw => {
  let drawn = 0;
  return {
    next: () => {
      drawn++;
      return path;
    },
    get drawn() {
      return drawn;
    },
    size: 1,
  };
};

interface WarmDefinition {
  name: string;
  label: string;
  method: "GET" | "PUT";
  path: string;
  /** Where each request's path comes from, when it is not `path` every time. */
  requests?: Draw;
  body?: string;
  nextBody?: () => string;
  /** With an endpoint subscribed to comment.updated, answered by a receiver in this process. */
  webhook?: boolean;
}

/**
 * A real edit every time: the same text again changes nothing and sends no webhook, so both PUT
 * scenarios change the text on each request and do the same work, but for the event. The text
 * holds this run's start and the scenario's own tag, so that no run writes a text a comment
 * already holds from an earlier run or from the other scenario.
 */
function editBodies(tag: string): () => string {
  let n = 0;
  const run = Date.now().toString(36);
  return () => `commentDescription=Thanks%2C+looking+into+it+${run}${tag}${++n}&pinComment=true`;
}

/**
 * The PUTs edit a different comment each time, drawn from comments all over the table, as
 * moderators and integrations do: PUTs that all edit one comment queue for its row's lock on
 * PostgreSQL, and then measure the queue more than the write.
 */
const commentEdits = (commentIds: string[], shuffle: number): Draw =>
  draw({ size: commentIds.length, at: (i) => `/api/v1/comments/${commentIds[i]}` }, shuffle);

/** The cache-warm scenarios, on ids the deterministic seed always makes, and the PUTs. */
function warmDefinitions(commentIds: string[]): WarmDefinition[] {
  const changelogId = `demo_changelog_${String(Math.ceil(posts / 40)).padStart(7, "0")}`;
  return [
    { name: "posts", label: "GET /posts (default)", method: "GET", path: "/api/v1/posts" },
    { name: "posts-board-status", label: "GET /posts board + status", method: "GET", path: "/api/v1/posts?boardId=demo_board_2&statusId=demo_status_3" },
    { name: "posts-top", label: "GET /posts sortBy=top", method: "GET", path: "/api/v1/posts?sortBy=top" },
    { name: "search-common", label: "GET /posts search common word", method: "GET", path: "/api/v1/posts?search=dashboard" },
    { name: "search-rare", label: "GET /posts search rare word", method: "GET", path: "/api/v1/posts?search=137" },
    { name: "posts-page-5000", label: "GET /posts page=5000", method: "GET", path: "/api/v1/posts?page=5000" },
    { name: "changelogs", label: "GET /changelogs status + labels", method: "GET", path: "/api/v1/changelogs?status=Published&labels=Fixed,Security" },
    { name: "changelog", label: "GET /changelogs/:id", method: "GET", path: `/api/v1/changelogs/${changelogId}` },
    {
      name: "put-comment",
      label: `PUT /comments/:id, a different comment each time (${n0(commentIds.length)} comments)`,
      method: "PUT",
      path: `/api/v1/comments/${commentIds[0]}`,
      requests: commentEdits(commentIds, seed),
      body: "commentDescription=Thanks%2C+looking+into+it&pinComment=true",
      nextBody: editBodies("a"),
    },
    {
      name: "put-comment-webhook",
      label: "PUT /comments/:id, a different comment each time, one webhook endpoint subscribed",
      method: "PUT",
      path: `/api/v1/comments/${commentIds[0]}`,
      requests: commentEdits(commentIds, seed + 1),
      body: "commentDescription=Thanks%2C+looking+into+it&pinComment=true",
      nextBody: editBodies("b"),
      webhook: true,
    },
  ];
}

const WARM_DEFINITIONS = warmDefinitions(["none"]);
const WARM_NAMES = WARM_DEFINITIONS.map((d) => d.name);
/** The PUTs: every one of them writes an event for each enabled endpoint. */
const PUT_NAMES = WARM_DEFINITIONS.filter((d) => d.method === "PUT").map((d) => d.name);
const VARIED_NAMES = VARIED_SCENARIOS.map((s) => s.name);
const wanted = options.only?.split(",").map((n) => n.trim());
const unknown = wanted?.filter((n) => !WARM_NAMES.includes(n) && !VARIED_NAMES.includes(n)) ?? [];
if (unknown.length) throw new Error(`--only: no scenario ${unknown.join(", ")} (varied: ${VARIED_NAMES.join(", ")}; cache-warm: ${WARM_NAMES.join(", ")})`);
const runs = (kind: Kind, name: string) => (options.scenarios === "all" || options.scenarios === kind) && (!wanted || wanted.includes(name));

function scenarios(universe: Universe, commentIds: string[], webhooks: { databaseUrl: string; receiver: BenchReceiver }): Scenario[] {
  const varied = VARIED_SCENARIOS.filter((s) => runs("varied", s.name)).map((s): Scenario => {
    const space = s.space(universe);
    const sampler = draw(space, seed + 1);
    return {
      name: s.name,
      label: s.label,
      kind: "varied",
      method: "GET",
      fastTarget: s.fastTarget,
      requests: draw(space, seed),
      samples: Array.from({ length: SAMPLES }, () => sampler.next()),
      noMatches: s.name === "varied-no-match",
    };
  });
  const warm = warmDefinitions(commentIds)
    .filter((d) => runs("warm", d.name))
    .map((d): Scenario => {
      const scenario: Scenario = { ...d, kind: "warm", fastTarget: d.method === "GET", requests: d.requests ?? repeated(d.path), samples: [d.path] };
      if (!d.webhook) return scenario;
      let receivedBefore = 0;
      return {
        ...scenario,
        setUp: async () => {
          await subscribe(webhooks.databaseUrl, webhooks.receiver.url);
          receivedBefore = webhooks.receiver.received();
        },
        tearDown: async () => {
          const pending = await unsubscribe(webhooks.databaseUrl);
          return `${n0(webhooks.receiver.received() - receivedBefore)} deliveries received over the warm-up and the run, ${n0(pending)} still pending at its end`;
        },
      };
    });
  return [...varied, ...warm];
}

function run(command: string, args: string[], env: Record<string, string>): string {
  return execFileSync(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] }).toString();
}

const cli = (env: Record<string, string>, ...args: string[]) =>
  run(process.execPath, [...scriptArgs("cli/feedback.ts"), ...args], env).trim();

interface Prepared {
  url: string;
  describe: string;
  /** Comments for the PUTs to edit, from all over the table. */
  commentIds: string[];
}

/** Comments for the PUTs: this many runs of consecutive ids, from evenly spaced posts. */
const COMMENT_RUNS = 100;
const COMMENTS_PER_RUN = 100;

async function pgAdmin<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: options["pg-url"] });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

/** Makes (or reuses) the seeded database for one engine. */
async function prepare(engine: "sqlite" | "postgres"): Promise<Prepared> {
  fs.mkdirSync(dataDir, { recursive: true });
  const marker = path.join(dataDir, `${engine}-${posts}.seeded`);
  let url: string;
  if (engine === "sqlite") {
    const file = path.join(dataDir, `sqlite-${posts}.db`);
    url = `file:${file}`;
    if (!fs.existsSync(marker) || !fs.existsSync(file)) {
      for (const suffix of ["", "-wal", "-shm"]) fs.rmSync(file + suffix, { force: true });
      fs.rmSync(marker, { force: true });
    }
  } else {
    const name = `feedback_bench_${posts}`;
    const admin = new URL(options["pg-url"]);
    admin.pathname = `/${name}`;
    url = admin.toString();
    const exists = await pgAdmin(async (c) => (await c.query("SELECT 1 FROM pg_database WHERE datname = $1", [name])).rowCount === 1);
    if (!fs.existsSync(marker) || !exists) {
      fs.rmSync(marker, { force: true });
      await pgAdmin(async (c) => {
        await c.query(`DROP DATABASE IF EXISTS "${name}"`);
        await c.query(`CREATE DATABASE "${name}"`);
      });
    }
  }
  const env = { DATABASE_URL: url, LOG_LEVEL: "warn" };
  log(`${engine}: migrating`);
  cli(env, "migrate");
  if (!fs.existsSync(marker)) {
    log(`${engine}: seeding ${posts} posts (progress below)`);
    const started = Date.now();
    const summary = cli(env, "seed", "--posts", String(posts));
    fs.writeFileSync(marker, `${summary}\n`);
    log(`${engine}: ${summary} (${((Date.now() - started) / 1000).toFixed(0)} s wall)`);
  } else {
    log(`${engine}: reusing ${fs.readFileSync(marker, "utf8").trim()}`);
  }
  // Not every post has a comment, so each run starts at the first comment from its post on.
  const starts = Array.from({ length: COMMENT_RUNS }, (_, k) => `demo_comment_${String(1 + Math.floor((k * posts) / COMMENT_RUNS)).padStart(7, "0")}`);
  const sql = `SELECT "id" FROM "Comment" WHERE "id" >= $1 ORDER BY "id" LIMIT ${COMMENTS_PER_RUN}`;
  const commentIds = [...new Set(engine === "sqlite" ? await sqliteIds(url, sql.replace("$1", "?"), starts) : await pgIds(url, sql, starts))];
  if (!commentIds.length) throw new Error("the seeded database holds no comments");
  return { url, describe: fs.readFileSync(marker, "utf8").trim(), commentIds };
}

/** The ids a query finds for each parameter, all together. */
async function sqliteIds(url: string, sql: string, params: string[]): Promise<string[]> {
  const { default: Database } = await import("better-sqlite3");
  const database = new Database(url.slice("file:".length), { readonly: true });
  try {
    const statement = database.prepare(sql).pluck();
    return params.flatMap((param) => statement.all(param) as string[]);
  } finally {
    database.close();
  }
}

async function pgIds(url: string, sql: string, params: string[]): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const ids: string[] = [];
    for (const param of params) ids.push(...(await client.query<{ id: string }>(sql, [param])).rows.map((row) => row.id));
    return ids;
  } finally {
    await client.end();
  }
}

/** Builds the app into distDir, or reuses the build there (--skip-build); says which code it is of. */
function build(): string {
  const dir = path.join(root, distDir);
  const tree = sourceStamp(root);
  const ofTree = tree ? describeStamp(tree) : "code of unknown origin (not a git checkout)";
  if (options["skip-build"] && fs.existsSync(path.join(dir, "BUILD_ID"))) {
    const built = readStamp(dir);
    const ofBuild = built ? describeStamp(built) : "code of unknown origin (no stamp)";
    if (built && tree && built.digest === tree.digest) return ofBuild;
    if (!tree) {
      log(`cannot tell what ${distDir} was built from; reusing it`);
      return ofBuild;
    }
    if (!options["other-build"]) {
      throw new Error(
        `--skip-build: ${distDir} was built from ${ofBuild}, but the tree is ${ofTree}; run without --skip-build, or add --other-build to measure that build anyway`,
      );
    }
    log(`measuring a build of other code: ${ofBuild} (the tree is ${ofTree})`);
    return `${ofBuild}, reused by --other-build while the tree was ${ofTree}`;
  }
  log("building the app (next build)");
  run(path.join(root, "node_modules", ".bin", "next"), ["build"], { NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: "1" });
  writeStamp(dir, tree);
  return ofTree;
}

async function start(kind: "app" | "baseline", url: string, port: number, workers: number): Promise<Server> {
  const env = {
    ...process.env,
    DATABASE_URL: url,
    NODE_ENV: "production" as const,
    NEXT_DIST_DIR: distDir,
    NEXT_TELEMETRY_DISABLED: "1",
    // Every request counted, as by default (on PostgreSQL a write to the RateLimit table each),
    // against a limit no run reaches: at 0 the limiter would skip the counting deployments pay.
    RATE_LIMIT_PER_MINUTE: "10000000",
    PORT: String(port),
    HOSTNAME: "127.0.0.1",
    LOG_LEVEL: "warn",
    // The PUT-with-a-webhook scenario's receiver is in this process, on loopback and http.
    WEBHOOK_ALLOW_PRIVATE: "true",
    WEBHOOK_ALLOW_HTTP: "true",
    WEB_CONCURRENCY: String(workers),
    BASELINE_PORT: String(port),
    // Every second's longest event-loop hold, read from the server's stderr (readHolds), which
    // reads the text format.
    EVENT_LOOP_WARN_MS: "1",
    LOG_FORMAT: "text",
  };
  const script = kind === "app" ? path.join(root, "server.ts") : path.join(root, "bench", "baseline-server.ts");
  const profile = options["cpu-prof"] ? ["--cpu-prof", `--cpu-prof-dir=${path.resolve(options["cpu-prof"])}`] : [];
  const args = kind === "app" ? [...profile, ...serverArgs(root)] : ["--import", "tsx", script];
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "ignore", "pipe"] });
  // As /proc/<pid>/smaps names it: links resolved.
  const databaseFile = url.startsWith("file:") ? fs.realpathSync(sqlitePath(url)) : undefined;
  const server: Server = { process: child, port, seen: new Map(), databaseProcesses: /^postgres(ql)?:/.test(url), databaseFile, holds: [] };
  if (child.stderr) readHolds(child.stderr, server.holds, EVENT_LOOP_HELD);
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`the ${kind} server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) break;
    } catch {
      // not listening yet
    }
    if (i === 299) throw new Error(`the ${kind} server did not start`);
    await sleep(100);
  }
  // With several workers the first to listen answers the health check; give the others a moment.
  // A server that ignores WEB_CONCURRENCY never shows them: the report says how many it ran.
  for (let i = 0; i < 100; i++) {
    noteProcesses(server, processTree(child.pid ?? 0));
    if (nodeProcesses(server) >= workers + (workers > 1 ? 1 : 0)) break;
    await sleep(100);
  }
  return server;
}

async function stop(server: Server): Promise<void> {
  const tree = processTree(server.process.pid ?? 0);
  if (server.process.exitCode === null) {
    const exited = new Promise((resolve) => server.process.once("exit", resolve));
    server.process.kill("SIGTERM");
    await Promise.race([exited, sleep(10_000)]);
  }
  // Its webhook dispatcher ends by itself once it has recorded what it sent (and written its
  // CPU profile, under --cpu-prof); workers the server forked and did not take down with it, and
  // a dispatcher still running after that, are killed.
  const alive = (pid: number) => {
    try {
      // A zombie (state Z) has ended; only its parent's wait is missing.
      return fs.readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]?.[0] !== "Z";
    } catch {
      return false;
    }
  };
  for (let i = 0; i < 50 && tree.some(alive); i++) await sleep(100);
  for (const pid of tree) {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // already gone
    }
  }
}

/**
 * Waits until a server has worked through the requests still queued when the load stopped
 * (a slow scenario leaves many, and a client that gives up does not take its query off a
 * reader), so they do not steal the next measurement. It asks for a read that touches the
 * database: /api/health answers from the event loop while every reader is still busy.
 */
async function drain(server: Server, key: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const started = Date.now();
    try {
      await fetch(`http://127.0.0.1:${server.port}/api/v1/changelogs?limit=1`, { headers: { authorization: `Bearer ${key}` } });
    } catch {
      // keep trying
    }
    if (Date.now() - started < 50) return;
    await sleep(100);
  }
}
interface Answer {
  status: number;
  total?: number;
  exact: boolean;
  ids?: string;
  text: string;
}

async function ask(server: Server, key: string, scenario: Omit<Load, "requests">, requestPath: string): Promise<Answer> {
  const response = await fetch(`http://127.0.0.1:${server.port}${requestPath}`, {
    method: scenario.method,
    headers: { authorization: `Bearer ${key}`, ...(scenario.body ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
    body: scenario.body,
  });
  const text = await response.text();
  let json: { data?: { id?: string } | { id?: string }[]; pagination?: { total: number; totalIsExact?: boolean } } = {};
  try {
    json = JSON.parse(text);
  } catch {
    // reported below through the status
  }
  const ids = Array.isArray(json.data) ? json.data.map((d) => d.id).join(",") : json.data?.id;
  return { status: response.status, total: json.pagination?.total, exact: json.pagination?.totalIsExact !== false, ids, text };
}

/**
 * Before any load: a few requests of each scenario must answer 200 (a load of 400s would
 * measure the error path). Returns what the answers held: the range of totals ("hits").
 */
async function check(app: Server, baseline: Server | undefined, key: string, scenario: Scenario): Promise<string> {
  const totals: number[] = [];
  let bounded = false;
  for (const sample of scenario.samples) {
    const answer = await ask(app, key, scenario, sample);
    if (answer.status !== 200) throw new Error(`${scenario.name}: ${sample} answered ${answer.status}: ${answer.text.slice(0, 300)}`);
    if (scenario.noMatches && answer.total !== 0) throw new Error(`${scenario.name}: ${sample} matched ${answer.total} posts`);
    if (answer.total !== undefined) totals.push(answer.total);
    bounded ||= !answer.exact;
    if (baseline) {
      const other = await ask(baseline, key, scenario, sample);
      if (other.status !== 200) throw new Error(`${scenario.name}: the baseline answered ${other.status}`);
      if (answer.ids !== other.ids || (answer.exact && answer.total !== other.total)) {
        throw new Error(`${scenario.name}: app and baseline disagree (${answer.total} vs ${other.total})`);
      }
    }
  }
  if (!totals.length) return "";
  const range = totals.length > 1 ? `${n0(Math.min(...totals))}–${n0(Math.max(...totals))}` : n0(totals[0] as number);
  return bounded ? `${range} (some bounded)` : range;
}

/**
 * A server fresh from its start reads what its searches lean on in the background: on SQLite
 * each index's vocabulary, the sort orders' ranks and the commonest words' bits, from its start
 * (lib/sqlite/warm-up.ts; at a million posts, held 21 s after a start on an idle machine: the
 * posts' vocabulary took 5 s, their words' bits 11 s), and on both engines a deep page's
 * positions the first time a deep page needs them. A run made meanwhile measures the start as
 * well as the service: on 2026-12-05, before the warm-up, rare numbers, the first scenario after
 * the start, ran at 21% of the floor, with their words' bits not yet read. So before its first run each server is
 * given `seconds`, with one sampled request of each GET scenario a second (a worker count of
 * several gets them in turn, so each process reads its own); what it spent over the last five of
 * them, the sampled requests included, says whether it had gone quiet (the report gives it).
 * Null with no settling (--settle 0): then the first runs measure the start too.
 */
async function settle(server: Server, key: string, list: Scenario[], seconds: number): Promise<Settled | null> {
  if (!seconds) return null;
  const gets = list.filter((scenario) => scenario.method === "GET");
  const started = Date.now();
  const until = started + seconds * 1000;
  const tailMs = Math.min(5000, seconds * 1000);
  let tail: { at: number; cpu: CpuReading } | undefined;
  for (let round = 0; Date.now() < until; round++) {
    const roundStarted = Date.now();
    if (!tail && until - roundStarted <= tailMs) tail = { at: roundStarted, cpu: readCpu(server) };
    for (const scenario of gets) {
      const sample = scenario.samples[round % scenario.samples.length];
      if (sample === undefined) continue;
      // The samples answered 200 when they were checked; one that no longer does ends the bench here.
      const status = await getOnItsOwnConnection(server, key, sample);
      if (status !== 200) throw new Error(`settling: GET ${sample} answered ${status}`);
    }
    await sleep(Math.min(until - Date.now(), 1000 - (Date.now() - roundStarted)));
  }
  tail ??= { at: started, cpu: readCpu(server) };
  const spent = cpuSpent(tail.cpu, readCpu(server));
  const tailMsSpent = Math.max(1, Date.now() - tail.at);
  return { tailSeconds: tailMsSpent / 1000, tailCpuShare: (spent.server + spent.dispatcher) / tailMsSpent };
}

/**
 * A GET on a connection of its own, answered and closed. Several workers are handed the
 * server's connections in turn, and fetch keeps one open and sends everything on it: settling
 * that way warmed one worker of two, and the other read its search aids during the first runs
 * (rare numbers at 18% of the floor with two workers, after 50% with one).
 */
function getOnItsOwnConnection(server: Server, key: string, requestPath: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      { host: "127.0.0.1", port: server.port, path: requestPath, agent: false, headers: { authorization: `Bearer ${key}` } },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
      },
    );
    request.on("error", reject);
  });
}

/** Totals of the unfiltered list and of each board, for the deep pages' range. */
async function universeOf(app: Server, key: string): Promise<Universe> {
  const total = async (query: string) => {
    const answer = await ask(app, key, { method: "GET" }, `/api/v1/posts?limit=1${query}`);
    if (answer.status !== 200 || answer.total === undefined) throw new Error(`GET /api/v1/posts${query} answered ${answer.status}`);
    return answer.total;
  };
  const boardPosts: Record<string, number> = {};
  for (const board of BOARD_IDS) boardPosts[board] = await total(`&boardId=${board}`);
  return { posts: await total(""), boardPosts };
}
async function databaseVersion(engine: "sqlite" | "postgres", url: string): Promise<string> {
  if (engine === "sqlite") {
    const { default: Database } = await import("better-sqlite3");
    const database = new Database(url.slice(5), { readonly: true });
    const version = (database.prepare("SELECT sqlite_version() AS v").get() as { v: string }).v;
    database.close();
    return `SQLite ${version} (better-sqlite3, WAL)`;
  }
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  const version = (await client.query("SHOW server_version")).rows[0]?.server_version as string;
  // Its own cache: what does not fit is read through the kernel's file cache (see the machine line).
  const buffers = (await client.query("SHOW shared_buffers")).rows[0]?.shared_buffers as string;
  // Whether the buffers are read back after a restart (scripts/postgres-ci.sh loads pg_prewarm;
  // its setting exists only where it was loaded, and unlike the list of libraries anyone may read it).
  const autoprewarm = (await client.query("SELECT current_setting('pg_prewarm.autoprewarm', true) AS on")).rows[0]?.on as string | null;
  const prewarm = autoprewarm === "on" ? "on" : "off";
  const hugePages = (await client.query("SHOW huge_pages")).rows[0]?.huge_pages as string;
  await client.end();
  return `PostgreSQL ${version} (pg), shared_buffers ${buffers}, pg_prewarm's autoprewarm ${prewarm}, huge_pages ${hugePages} (${sharedMemoryPages()}), on the same machine`;
}

/**
 * Whether PostgreSQL's shared memory is in huge pages: PostgreSQL 15 does not say when
 * huge_pages is "try", but its processes' memory maps do (a mapping named anon_hugepage).
 */
function sharedMemoryPages(): string {
  for (const pid of postgresProcesses()) {
    try {
      return fs.readFileSync(`/proc/${pid}/maps`, "utf8").includes("anon_hugepage") ? "in huge pages" : "in 4 kB pages";
    } catch {
      // gone, or not ours to read: the next one
    }
  }
  return "its pages not readable from here";
}
const floorScenario = { method: "GET" as const, requests: repeated("/api/health") };

async function measure(server: Server, key: string, scenario: Load, connections: number): Promise<Measure> {
  await load(server, key, scenario, connections, WARM_UP_SECONDS);
  await drain(server, key);
  const measured = await load(server, key, scenario, connections, duration);
  await drain(server, key);
  return measured;
}

/**
 * The two PUT scenarios are compared with each other (the webhook's cost must stay within 10%),
 * and one run of each differs from the next by more than that on a busy machine: they run in
 * turns, A B B A A B (--rounds, default 3), and each is reported as the median of its runs.
 */
function pairOf(list: Scenario[]): [Scenario, Scenario] | undefined {
  const plain = list.find((s) => s.name === "put-comment");
  const webhook = list.find((s) => s.name === "put-comment-webhook");
  return plain && webhook ? [plain, webhook] : undefined;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)] ?? 0;

/** The longest of some holds, null when none was reported. */
const longestOf = (holds: (number | null)[]): number | null => {
  const reported = holds.filter((h) => h !== null);
  return reported.length ? Math.max(...reported) : null;
};

/** Runs of one scenario as one: the median throughput and latencies, every error, the most memory. */
function medianOf(runs: Measure[]): Measure {
  const first = runs[0] as Measure;
  const non2xx: Record<string, number> = {};
  for (const run of runs) for (const [status, n] of Object.entries(run.non2xx)) non2xx[status] = (non2xx[status] ?? 0) + n;
  return {
    ...first,
    rps: median(runs.map((r) => r.rps)),
    p50: median(runs.map((r) => r.p50)),
    p99: median(runs.map((r) => r.p99)),
    responses: runs.reduce((sum, r) => sum + r.responses, 0),
    non2xx,
    errors: runs.reduce((sum, r) => sum + r.errors, 0),
    timeouts: runs.reduce((sum, r) => sum + r.timeouts, 0),
    probe: { ...first.probe, p99: median(runs.map((r) => r.probe.p99)) },
    memory: runs.reduce((most, r) => (r.memory.maxProcessMb > most.maxProcessMb ? r.memory : most), first.memory),
    heldMs: longestOf(runs.map((r) => r.heldMs)),
    cpu: {
      server: median(runs.map((r) => r.cpu.server)),
      dispatcher: median(runs.map((r) => r.cpu.dispatcher)),
      database: first.cpu.database === null ? null : median(runs.map((r) => r.cpu.database ?? 0)),
      bench: median(runs.map((r) => r.cpu.bench)),
    },
  };
}

async function measurePair(
  app: Server,
  key: string,
  pair: [Scenario, Scenario],
  connections: number,
  what: string,
): Promise<Map<Scenario, { median: Measure; all: Measure[]; notes: string[] }>> {
  const runs = new Map(pair.map((scenario) => [scenario, { all: [] as Measure[], notes: [] as string[] }]));
  for (let round = 0; round < pairRounds; round++) {
    for (const scenario of round % 2 ? [...pair].reverse() : pair) {
      log(`${what}, ${scenario.name} (round ${round + 1} of ${pairRounds}), ${connections} connections`);
      await scenario.setUp?.();
      const measured = await measure(app, key, scenario, connections);
      const note = await scenario.tearDown?.();
      const mine = runs.get(scenario);
      mine?.all.push(measured);
      if (note) mine?.notes.push(`run ${mine.all.length}: ${note}`);
    }
  }
  return new Map([...runs].map(([scenario, { all, notes }]) => [scenario, { median: medianOf(all), all, notes }]));
}

async function benchEngine(engine: "sqlite" | "postgres", code: string): Promise<void> {
  const loadAtStart = os.loadavg()[0] ?? 0;
  const prepared = await prepare(engine);
  if (PUT_NAMES.some((name) => runs("warm", name))) {
    const others = await otherEnabledEndpoints(prepared.url);
    if (others.length) {
      throw new Error(
        `the ${engine} database has webhook endpoints enabled besides the bench's own (${others.join(", ")}): every PUT would send them events, the PUT without an endpoint included. Disable them (feedback webhooks disable ID) or leave out the PUTs (--only)`,
      );
    }
  }
  const env = { DATABASE_URL: prepared.url, LOG_LEVEL: "warn" };
  const key = cli(env, "keys", "create", "--name", `bench ${new Date().toISOString()}`);
  const context: Context = {
    settings: { posts, duration, warmUpSeconds: WARM_UP_SECONDS, settleSeconds, workerCounts, connectionLevels, seed, samples: SAMPLES, baseline: options.baseline },
    engine,
    code,
    data: prepared.describe,
    version: await databaseVersion(engine, prepared.url),
    loadAtStart,
    processes: new Map(),
    settled: new Map(),
  };
  const baseline = options.baseline ? await start("baseline", prepared.url, basePort + 1, 1) : undefined;
  const receiver = await startBenchReceiver();
  const rows: Row[] = [];
  let list: Scenario[] | undefined;
  const hits = new Map<string, string>();
  try {
    for (const [index, workers] of workerCounts.entries()) {
      log(`${engine}: starting the app with WEB_CONCURRENCY=${workers}`);
      const app = await start("app", prepared.url, basePort, workers);
      try {
        if (!list) {
          list = scenarios(await universeOf(app, key), prepared.commentIds, { databaseUrl: prepared.url, receiver });
          for (const scenario of list) {
            hits.set(scenario.name, await check(app, scenario.kind === "warm" ? baseline : undefined, key, scenario));
          }
          log(`${engine}: every sampled request answered 200`);
        }
        if (settleSeconds) log(`${engine}: ${workers} worker(s), settling for ${settleSeconds} s`);
        const settled = await settle(app, key, list, settleSeconds);
        context.settled.set(workers, settled);
        if (settled) log(`  the server's CPU over the last ${settled.tailSeconds.toFixed(0)} s: ${(100 * settled.tailCpuShare).toFixed(0)}% of one core`);
        for (const connections of connectionLevels) {
          // The floor before and after the scenarios: a server fresh from its start is still
          // warming up, so the higher of the two is the one the scenarios are held to.
          log(`${engine}: ${workers} worker(s), floor, ${connections} connections`);
          const before = await measure(app, key, floorScenario, connections);
          const level: Omit<Row, "floor" | "floorRuns">[] = [];
          const paired = pairOf(list);
          for (const scenario of list) {
            if (paired && scenario === paired[1]) continue;
            if (paired && scenario === paired[0]) {
              for (const [one, runs] of await measurePair(app, key, paired, connections, `${engine}: ${workers} worker(s)`)) {
                const note = `median of ${pairRounds} runs, alternated with ${one === paired[0] ? "the other PUT" : "the PUT without"}${runs.notes.length ? `; ${runs.notes.join("; ")}` : ""}`;
                level.push({ scenario: one, workers, connections, hits: hits.get(one.name) ?? "", app: runs.median, note });
                log(`  ${one.name}: ${n0(runs.median.rps)} req/s p99 ${ms(runs.median.p99)} ms (${runs.all.map((m) => n0(m.rps)).join(", ")}), ${CPU_HEADER} ${cpuText(runs.median.cpu)}`);
              }
              continue;
            }
            log(`${engine}: ${workers} worker(s), ${scenario.name}, ${connections} connections`);
            await scenario.setUp?.();
            const measured = await measure(app, key, scenario, connections);
            const note = await scenario.tearDown?.();
            const row: (typeof level)[number] = { scenario, workers, connections, hits: hits.get(scenario.name) ?? "", app: measured, note };
            if (baseline && index === 0 && scenario.kind === "warm") row.baseline = await measure(baseline, key, scenario, connections);
            level.push(row);
            log(
              `  ${n0(row.app.rps)} req/s p50 ${ms(row.app.p50)} p99 ${ms(row.app.p99)} ms, errors ${errorText(row.app)}, health p99 ${ms(row.app.probe.p99)} ms, loop held ${heldText(row.app.heldMs)} ms, ${f0(row.app.memory.maxProcessMb)} MB | floor ${n0(before.rps)}${row.baseline ? ` | baseline ${n0(row.baseline.rps)} req/s` : ""}${note ? ` | ${note}` : ""}`,
            );
          }
          log(`${engine}: ${workers} worker(s), floor again, ${connections} connections`);
          const after = await measure(app, key, floorScenario, connections);
          const floor = after.rps > before.rps ? after : before;
          log(`  floor ${n0(before.rps)} req/s before, ${n0(after.rps)} after`);
          for (const row of level) rows.push({ ...row, floor, floorRuns: [before, after] });
        }
      } finally {
        context.processes.set(workers, [...app.seen.values()]);
        await stop(app);
      }
    }
  } finally {
    if (baseline) await stop(baseline);
    await receiver.close();
  }
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = reportFile(resultsDir, engine, posts, new Date().toISOString().slice(0, 10));
  fs.writeFileSync(file, report(context, rows));
  log(`wrote ${path.relative(root, file)}`);
  process.stdout.write(`${fs.readFileSync(file, "utf8")}\n`);
}

async function main(): Promise<void> {
  if (engines.includes("postgres")) {
    // Make sure the admin URL works before spending minutes on the build.
    await pgAdmin(async (c) => c.query("SELECT 1"));
  }
  const code = build();
  for (const engine of engines) await benchEngine(engine, code);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
