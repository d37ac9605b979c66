// `npm run bench -- [options]`: seeds a database, builds and starts the production server, and
// drives each scenario with autocannon, next to two references on the same data: the framework
// floor (GET /api/health, a route handler of this app that does no database work) and the
// baseline (bench/baseline-server.ts: node:http, the same driver, hand-written SQL).
// Results go to bench/results/<engine>-<posts>-<date>.md.
//
// Options:
//   --posts N            posts to seed (default 1000000; comments 2x, changelogs N/20)
//   --engine E           sqlite, postgres or both (default sqlite)
//   --duration S         seconds per run (default 10), after a 2-second warm-up
//   --connections LIST   concurrency levels (default 16,64)
//   --port P             first of three ports to use (default 3300)
//   --pg-url URL         an admin URL that may create databases (default: scripts/postgres-ci.sh's)
//   --only LIST          scenario names to run (default: all)
//   --skip-build         reuse the existing bench build in .next-bench
//
// Data is kept under bench/.data/ (SQLite) or in the database feedback_bench_<posts>
// (PostgreSQL) and reused when it was fully seeded before.
import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import autocannon from "autocannon";
import pg from "pg";

const root = path.resolve(import.meta.dirname, "..");
const dataDir = path.join(root, "bench", ".data");
const resultsDir = path.join(root, "bench", "results");
const distDir = ".next-bench";

const { values: options } = parseArgs({
  options: {
    posts: { type: "string", default: "1000000" },
    engine: { type: "string", default: "sqlite" },
    duration: { type: "string", default: "10" },
    connections: { type: "string", default: "16,64" },
    port: { type: "string", default: "3300" },
    "pg-url": { type: "string", default: "postgresql://feedback:feedback@127.0.0.1:5432/postgres" },
    only: { type: "string" },
    "skip-build": { type: "boolean", default: false },
  },
});

const posts = Number(options.posts);
const duration = Number(options.duration);
const connectionLevels = options.connections.split(",").map(Number);
const basePort = Number(options.port);
const engines = options.engine === "both" ? (["sqlite", "postgres"] as const) : [options.engine as "sqlite" | "postgres"];
if (!Number.isInteger(posts) || posts < 1000) throw new Error("--posts must be a whole number of at least 1000");
if (!engines.every((e) => e === "sqlite" || e === "postgres")) throw new Error("--engine must be sqlite, postgres or both");

const log = (line: string) => process.stderr.write(`bench: ${line}\n`);
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

interface Scenario {
  name: string;
  label: string;
  method: "GET" | "PUT";
  path: string;
  body?: string;
  read: boolean;
}

/** The scenarios, on ids the deterministic seed always makes. */
function scenarios(): Scenario[] {
  const changelogId = `demo_changelog_${String(Math.ceil(posts / 40)).padStart(7, "0")}`;
  return [
    { name: "posts", label: "GET /posts (default)", method: "GET", path: "/api/v1/posts", read: true },
    { name: "posts-board-status", label: "GET /posts board + status", method: "GET", path: "/api/v1/posts?boardId=demo_board_2&statusId=demo_status_3", read: true },
    { name: "posts-top", label: "GET /posts sortBy=top", method: "GET", path: "/api/v1/posts?sortBy=top", read: true },
    { name: "search-common", label: "GET /posts search common word", method: "GET", path: "/api/v1/posts?search=dashboard", read: true },
    { name: "search-rare", label: "GET /posts search rare word", method: "GET", path: "/api/v1/posts?search=137", read: true },
    { name: "posts-page-5000", label: "GET /posts page=5000", method: "GET", path: "/api/v1/posts?page=5000", read: true },
    { name: "changelogs", label: "GET /changelogs status + labels", method: "GET", path: "/api/v1/changelogs?status=Published&labels=Fixed,Security", read: true },
    { name: "changelog", label: "GET /changelogs/:id", method: "GET", path: `/api/v1/changelogs/${changelogId}`, read: true },
    { name: "put-comment", label: "PUT /comments/:id", method: "PUT", path: "/api/v1/comments/COMMENT", body: "commentDescription=Thanks%2C+looking+into+it&pinComment=true", read: false },
  ];
}

function run(command: string, args: string[], env: Record<string, string>): string {
  return execFileSync(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "inherit"] }).toString();
}

const cli = (env: Record<string, string>, ...args: string[]) =>
  run(path.join(root, "node_modules", ".bin", "tsx"), ["cli/feedback.ts", ...args], env).trim();

interface Prepared {
  url: string;
  describe: string;
  commentId: string;
}

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
  // A comment in the middle of the table (not every post has one, so look it up).
  const middle = `demo_comment_${String(Math.ceil(posts / 2)).padStart(7, "0")}`;
  const sql = `SELECT "id" FROM "Comment" WHERE "id" >= $1 ORDER BY "id" LIMIT 1`;
  const commentId =
    engine === "sqlite"
      ? await sqliteValue(url, sql.replace("$1", "?"), middle)
      : await pgValue(url, sql, middle);
  return { url, describe: fs.readFileSync(marker, "utf8").trim(), commentId };
}

async function sqliteValue(url: string, sql: string, param: string): Promise<string> {
  const { default: Database } = await import("better-sqlite3");
  const database = new Database(url.slice("file:".length), { readonly: true });
  try {
    return Object.values(database.prepare(sql).get(param) as Record<string, string>)[0] ?? "";
  } finally {
    database.close();
  }
}

async function pgValue(url: string, sql: string, param: string): Promise<string> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return Object.values((await client.query(sql, [param])).rows[0] ?? {})[0] as string;
  } finally {
    await client.end();
  }
}

function build(): void {
  if (options["skip-build"] && fs.existsSync(path.join(root, distDir, "BUILD_ID"))) return;
  log("building the app (next build)");
  run(path.join(root, "node_modules", ".bin", "next"), ["build"], { NEXT_DIST_DIR: distDir, NEXT_TELEMETRY_DISABLED: "1" });
}

interface Server {
  process: ChildProcess;
  port: number;
}

async function start(kind: "app" | "baseline", url: string, port: number): Promise<Server> {
  const env = {
    ...process.env,
    DATABASE_URL: url,
    NODE_ENV: "production" as const,
    NEXT_DIST_DIR: distDir,
    NEXT_TELEMETRY_DISABLED: "1",
    // The limiter would turn a load test into a 429 test.
    RATE_LIMIT_PER_MINUTE: "0",
    PORT: String(port),
    HOSTNAME: "127.0.0.1",
    LOG_LEVEL: "warn",
    BASELINE_PORT: String(port),
  };
  const child: ChildProcess =
    kind === "app"
      ? spawn(process.execPath, ["--import", "tsx", path.join(root, "server.ts")], {
          cwd: root,
          env,
          stdio: ["ignore", "ignore", "inherit"],
        })
      : spawn(process.execPath, ["--import", "tsx", path.join(root, "bench", "baseline-server.ts")], {
          cwd: root,
          env,
          stdio: ["ignore", "ignore", "inherit"],
        });
  for (let i = 0; i < 300; i++) {
    if (child.exitCode !== null) throw new Error(`the ${kind} server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`http://127.0.0.1:${port}/api/health`)).ok) return { process: child, port };
    } catch {
      // not listening yet
    }
    await sleep(100);
  }
  throw new Error(`the ${kind} server did not start`);
}

async function stop(server: Server): Promise<void> {
  if (server.process.exitCode !== null) return;
  const exited = new Promise((resolve) => server.process.once("exit", resolve));
  server.process.kill("SIGTERM");
  await Promise.race([exited, sleep(10_000)]);
  if (server.process.exitCode === null) server.process.kill("SIGKILL");
}

/**
 * Waits until a server has worked through the requests still queued when the load stopped
 * (a slow scenario leaves many), so they do not steal CPU from the next measurement.
 */
async function drain(server: Server): Promise<void> {
  for (let i = 0; i < 600; i++) {
    const started = Date.now();
    try {
      await fetch(`http://127.0.0.1:${server.port}/api/health`);
    } catch {
      // keep trying
    }
    if (Date.now() - started < 20) return;
    await sleep(100);
  }
}

/** Resident memory of a process, in MB, from /proc (Linux). */
function rssMb(pid: number): number {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    return Number(/VmRSS:\s+(\d+)/.exec(status)?.[1] ?? 0) / 1024;
  } catch {
    return 0;
  }
}

interface Measure {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
  peakMb: number;
}

async function load(server: Server, key: string, scenario: Pick<Scenario, "method" | "path" | "body">, connections: number, seconds: number): Promise<Measure> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (scenario.body) headers["content-type"] = "application/x-www-form-urlencoded";
  let peakMb = rssMb(server.process.pid ?? 0);
  const sampler = setInterval(() => {
    peakMb = Math.max(peakMb, rssMb(server.process.pid ?? 0));
  }, 100);
  try {
    const result = await autocannon({
      url: `http://127.0.0.1:${server.port}${scenario.path}`,
      method: scenario.method,
      body: scenario.body,
      headers,
      connections,
      duration: seconds,
    });
    return {
      rps: result.requests.average,
      p50: result.latency.p50,
      p99: result.latency.p99,
      errors: result.errors + result.timeouts + result.non2xx,
      peakMb,
    };
  } finally {
    clearInterval(sampler);
  }
}

/** One request to each server, to check both answer 200 with the same total before loading them. */
async function check(app: Server, baseline: Server, key: string, scenario: Scenario): Promise<string> {
  const answer = async (server: Server) => {
    const response = await fetch(`http://127.0.0.1:${server.port}${scenario.path}`, {
      method: scenario.method,
      headers: { authorization: `Bearer ${key}`, ...(scenario.body ? { "content-type": "application/x-www-form-urlencoded" } : {}) },
      body: scenario.body,
    });
    const json = (await response.json()) as { data?: { id?: string } | { id?: string }[]; pagination?: { total: number } };
    const ids = Array.isArray(json.data) ? json.data.map((d) => d.id).join(",") : json.data?.id;
    return { status: response.status, total: json.pagination?.total, ids };
  };
  const [a, b] = [await answer(app), await answer(baseline)];
  if (a.status !== 200 || b.status !== 200) throw new Error(`${scenario.name}: app answered ${a.status}, baseline ${b.status}`);
  if (a.total !== b.total || a.ids !== b.ids) throw new Error(`${scenario.name}: app and baseline disagree (${a.total} vs ${b.total})`);
  return a.total === undefined ? "" : String(a.total);
}

interface Row {
  scenario: Scenario;
  connections: number;
  total: string;
  app: Measure;
  floor: Measure;
  baseline: Measure;
}

function machine(): string {
  const cpus = os.cpus();
  return `${cpus.length} × ${cpus[0]?.model.trim() ?? "unknown CPU"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, ${os.type()} ${os.release()}, Node ${process.version}`;
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
  await client.end();
  return `PostgreSQL ${version} (pg, pool of 10), on the same machine`;
}

const f0 = (n: number) => n.toFixed(0);
const ratio = (a: number, b: number) => (b ? `${((a / b) * 100).toFixed(0)}%` : "-");

function report(engine: string, prepared: Prepared, version: string, rows: Row[]): string {
  const lines = [
    `# Benchmark: ${engine}, ${posts.toLocaleString("en")} posts`,
    "",
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${machine()}`,
    `- Database: ${version}`,
    `- Data: ${prepared.describe}`,
    `- Load: autocannon, ${duration} s per run after a 2 s warm-up, on the same machine; the app is \`server.ts\` (production build), the rate limit off.`,
    "- Floor: GET /api/health on the same app (a route handler with no database work). Baseline: bench/baseline-server.ts (node:http, the same driver, hand-written SQL, same JSON, same key check).",
    "- Memory: the app server's peak resident set size during the run.",
    `- Machine load (1-minute load average) at the start and end of the run: ${loadAtStart.toFixed(1)} / ${(os.loadavg()[0] ?? 0).toFixed(1)}. Other work on the machine (colleagues' test runs) shows up as noise.`,
    "",
    "| scenario | conns | total | app req/s | app p50 ms | app p99 ms | app peak MB | floor req/s | baseline req/s | baseline p99 ms | app / floor | app / baseline |",
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of rows) {
    const errors = r.app.errors || r.baseline.errors ? ` (errors: app ${r.app.errors}, baseline ${r.baseline.errors})` : "";
    lines.push(
      `| ${r.scenario.label}${errors} | ${r.connections} | ${r.total} | ${f0(r.app.rps)} | ${r.app.p50} | ${r.app.p99} | ${f0(r.app.peakMb)} | ${f0(r.floor.rps)} | ${f0(r.baseline.rps)} | ${r.baseline.p99} | ${ratio(r.app.rps, r.floor.rps)} | ${ratio(r.app.rps, r.baseline.rps)} |`,
    );
  }
  const reads = rows.filter((r) => r.scenario.read);
  const slow = reads.filter((r) => r.app.rps < 0.8 * r.floor.rps);
  const late = rows.filter((r) => r.connections === 16 && r.app.p99 >= 100);
  const peak = Math.max(...rows.map((r) => r.app.peakMb));
  lines.push(
    "",
    "## Targets",
    "",
    `- Every read at ≥ 80% of the floor's throughput: ${slow.length ? `missed by ${slow.map((r) => `${r.scenario.name}@${r.connections} (${ratio(r.app.rps, r.floor.rps)})`).join(", ")}` : "met"}.`,
    `- p99 < 100 ms at concurrency 16: ${late.length ? `missed by ${late.map((r) => `${r.scenario.name} (${r.app.p99} ms)`).join(", ")}` : "met"}.`,
    `- Server memory < 400 MB: ${peak < 400 ? "met" : "missed"} (peak ${f0(peak)} MB).`,
    "",
  );
  return lines.join("\n");
}

let loadAtStart = 0;

async function benchEngine(engine: "sqlite" | "postgres"): Promise<void> {
  loadAtStart = os.loadavg()[0] ?? 0;
  const prepared = await prepare(engine);
  const env = { DATABASE_URL: prepared.url, LOG_LEVEL: "warn" };
  const key = cli(env, "keys", "create", "--name", `bench ${new Date().toISOString()}`);
  const version = await databaseVersion(engine, prepared.url);
  const wanted = options.only?.split(",");
  const list = scenarios()
    .filter((s) => !wanted || wanted.includes(s.name))
    .map((s) => ({ ...s, path: s.path.replace("COMMENT", prepared.commentId) }));

  const app = await start("app", prepared.url, basePort);
  const baseline = await start("baseline", prepared.url, basePort + 1);
  const rows: Row[] = [];
  try {
    const totals = new Map<string, string>();
    for (const scenario of list) totals.set(scenario.name, await check(app, baseline, key, scenario));
    const floor = new Map<number, Measure>();
    for (const connections of connectionLevels) {
      log(`${engine}: floor, ${connections} connections`);
      const health = { method: "GET" as const, path: "/api/health" };
      await load(app, key, health, connections, 2);
      floor.set(connections, await load(app, key, health, connections, duration));
      await drain(app);
    }
    for (const scenario of list) {
      for (const connections of connectionLevels) {
        log(`${engine}: ${scenario.name}, ${connections} connections`);
        await load(app, key, scenario, connections, 2);
        const appMeasure = await load(app, key, scenario, connections, duration);
        await drain(app);
        await load(baseline, key, scenario, connections, 2);
        const baselineMeasure = await load(baseline, key, scenario, connections, duration);
        await drain(baseline);
        const row: Row = {
          scenario,
          connections,
          total: totals.get(scenario.name) ?? "",
          app: appMeasure,
          floor: floor.get(connections) as Measure,
          baseline: baselineMeasure,
        };
        rows.push(row);
        log(
          `  app ${f0(row.app.rps)} req/s p50 ${row.app.p50} p99 ${row.app.p99} ms ${f0(row.app.peakMb)} MB | floor ${f0(row.floor.rps)} | baseline ${f0(row.baseline.rps)} req/s p99 ${row.baseline.p99} ms | app/floor ${ratio(row.app.rps, row.floor.rps)}`,
        );
      }
    }
  } finally {
    await stop(app);
    await stop(baseline);
  }
  fs.mkdirSync(resultsDir, { recursive: true });
  const file = path.join(resultsDir, `${engine}-${posts}-${new Date().toISOString().slice(0, 10)}.md`);
  fs.writeFileSync(file, report(engine, prepared, version, rows));
  log(`wrote ${path.relative(root, file)}`);
  process.stdout.write(`${fs.readFileSync(file, "utf8")}\n`);
}

async function main(): Promise<void> {
  if (engines.includes("postgres")) {
    // Make sure the admin URL works before spending minutes on the build.
    await pgAdmin(async (c) => c.query("SELECT 1"));
  }
  build();
  for (const engine of engines) await benchEngine(engine);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench: ${error instanceof Error ? error.message : String(error)}\n`);
  process.exitCode = 1;
});
