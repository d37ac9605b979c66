import { type ChildProcess, execFile, spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import pg from "pg";
import { assertNoSecrets, cookieValues, keysIn } from "./log-secrets";
import { scriptArgs, serverArgs } from "../../lib/server-command";

// Starts the production build of the app on a throwaway database, as a real HTTP server, for
// API tests. TEST_ENGINE picks SQLite (default) or PostgreSQL; for PostgreSQL, TEST_POSTGRES_URL
// is an admin URL with which each app creates its own database and drops it on stop.

const root = path.resolve(import.meta.dirname, "..", "..");
const run = promisify(execFile);

export type Engine = "sqlite" | "postgres";

export interface CliResult {
  code: number;
  stdout: string;
  stderr: string;
}

export interface TestApp {
  engine: Engine;
  url: string;
  databaseUrl: string;
  keys: { write: string; read: string };
  /** fetch against the app; `key` null sends no Authorization header. */
  request(pathname: string, init?: RequestInit & { key?: string | null }): Promise<Response>;
  json<T = any>(pathname: string, init?: RequestInit & { key?: string | null }): Promise<{ status: number; body: T; headers: Headers }>;
  cli(args: string[]): Promise<CliResult>;
  /** Everything the server has written to stdout and stderr so far. */
  output(): string;
  /** The server's process, for tests of its own lifecycle (signals, workers). */
  server: ChildProcess;
  /** Stops the server, drops its database, and fails if its output held a key or a cookie. */
  stop(): Promise<void>;
}

/**
 * The server's JSON log lines (startApp sets LOG_FORMAT=json) with this message, from a test
 * app's output or from a process's output as text. A line still arriving (the output read
 * mid-line) is left for the next look.
 */
export function logLines(from: TestApp | string, message: string): Record<string, unknown>[] {
  return (typeof from === "string" ? from : from.output())
    .split("\n")
    .filter((line) => line.startsWith("{") && line.endsWith("}"))
    .map((line) => JSON.parse(line) as Record<string, unknown>)
    .filter((record) => record.msg === message);
}

/** The webhook dispatchers the server has started, in order (it logs each once its priority is set). */
export const dispatchersStarted = (app: TestApp) => logLines(app, "The webhook dispatcher started").map((line) => Number(line.pid));

/** The webhook dispatchers that have made their first pass: from then on, a nudge reaches them. */
export const dispatchersWaiting = (app: TestApp) =>
  logLines(app, "The webhook dispatcher is waiting for changes").map((line) => Number(line.pid));

export function testEngine(): Engine {
  const engine = process.env.TEST_ENGINE ?? "sqlite";
  if (engine !== "sqlite" && engine !== "postgres") throw new Error(`TEST_ENGINE must be sqlite or postgres, not ${engine}`);
  return engine;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** Runs `feedback` (the command line) against a database, as a separate process. */
export async function runCli(databaseUrl: string, args: string[], env: Record<string, string> = {}): Promise<CliResult> {
  try {
    const { stdout, stderr } = await run(process.execPath, [...scriptArgs("cli/feedback.ts"), ...args], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl, ...env },
      maxBuffer: 64 * 1024 * 1024,
    });
    return { code: 0, stdout, stderr };
  } catch (error) {
    const e = error as { code?: number; stdout?: string; stderr?: string };
    return { code: typeof e.code === "number" ? e.code : 1, stdout: e.stdout ?? "", stderr: e.stderr ?? "" };
  }
}

export interface ThrowawayDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A new empty database of the engine under test, migrated. */
export async function createDatabase(engine: Engine = testEngine()): Promise<ThrowawayDatabase> {
  let database: ThrowawayDatabase;
  if (engine === "sqlite") {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "feedback-test-"));
    database = { url: `file:${path.join(dir, "test.db")}`, drop: async () => fs.rmSync(dir, { recursive: true, force: true }) };
  } else {
    const admin = process.env.TEST_POSTGRES_URL;
    if (!admin) throw new Error("TEST_ENGINE=postgres needs TEST_POSTGRES_URL (an admin URL; scripts/postgres-ci.sh prints one)");
    const name = `feedback_test_${randomBytes(6).toString("hex")}`;
    const client = new pg.Client({ connectionString: admin });
    await client.connect();
    await client.query(`CREATE DATABASE "${name}"`);
    await client.end();
    const url = new URL(admin);
    url.pathname = `/${name}`;
    database = {
      url: url.toString(),
      drop: async () => {
        const c = new pg.Client({ connectionString: admin });
        await c.connect();
        try {
          // WITH (FORCE) ends the database's other connections, but PostgreSQL lets a role that
          // is not a superuser end only its own roles' (without pg_signal_backend): an autovacuum
          // worker busy on the database, after a test's large import, refuses it (42501, which
          // failed a CI run's after hook). The worker is done in moments; drop again.
          for (let attempt = 1; ; attempt++) {
            try {
              await c.query(`DROP DATABASE IF EXISTS "${name}" WITH (FORCE)`);
              return;
            } catch (error) {
              if ((error as { code?: string }).code !== "42501" || attempt >= 100) throw error;
              await new Promise((r) => setTimeout(r, 200));
            }
          }
        } finally {
          await c.end();
        }
      },
    };
  }
  const migrated = await runCli(database.url, ["migrate"]);
  if (migrated.code !== 0) {
    await database.drop();
    throw new Error(`migrate failed: ${migrated.stderr}`);
  }
  return database;
}

async function waitForHealth(url: string, child: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`the app exited early (${child.exitCode}):\n${output()}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`the app did not answer within 60 s:\n${output()}`);
}

export function distDir(): string {
  return process.env.NEXT_DIST_DIR ?? ".next";
}

export interface AppOptions {
  dataset?: unknown;
  env?: Record<string, string>;
  engine?: Engine;
  /** The DATABASE_URL the server is given, when it must differ from the database's own (a proxy in between). */
  serverDatabaseUrl?: string;
  /** Serve the database (and keys) of this running app from a second server process. */
  sameDatabaseAs?: TestApp;
  /**
   * Lines the server alone sees added to /etc/hosts ("10.20.30.40 private-hook.test"), so a name
   * resolves to a chosen address through the system's own resolver, with no DNS server and
   * without touching the machine's file: the server runs in its own mount namespace, where a copy
   * is bound over /etc/hosts (needs root and util-linux's unshare, as CI has).
   */
  hosts?: string[];
}

/** The server's command: Node, or Node inside a mount namespace that sees its own /etc/hosts. */
function serverCommand(hosts: string[] | undefined): { command: string; args: string[]; cleanup: () => void } {
  if (!hosts?.length) return { command: process.execPath, args: serverArgs(root), cleanup: () => {} };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "feedback-hosts-"));
  const file = path.join(dir, "hosts");
  fs.writeFileSync(file, `${fs.readFileSync("/etc/hosts", "utf8")}\n${hosts.join("\n")}\n`);
  return {
    command: "unshare",
    args: ["--mount", "sh", "-c", 'mount --bind "$0" /etc/hosts && exec "$@"', file, process.execPath, ...serverArgs(root)],
    cleanup: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

type Cli = (args: string[]) => Promise<CliResult>;

/**
 * Imports `data` (the import format) with `feedback import`, from a file removed afterwards;
 * throws with the command's stderr if it fails.
 */
export async function importData(cli: Cli, data: unknown): Promise<void> {
  const file = path.join(os.tmpdir(), `feedback-import-${randomBytes(6).toString("hex")}.json`);
  fs.writeFileSync(file, JSON.stringify(data));
  try {
    const imported = await cli(["import", file]);
    if (imported.code !== 0) throw new Error(`import failed: ${imported.stderr}`);
  } finally {
    fs.rmSync(file, { force: true });
  }
}

async function prepareDatabase(
  options: AppOptions,
  engine: Engine,
  cliFor: (databaseUrl: string) => Cli,
): Promise<{ database: ThrowawayDatabase; keys: TestApp["keys"] }> {
  const shared = options.sameDatabaseAs;
  if (shared) return { database: { url: shared.databaseUrl, drop: async () => undefined }, keys: shared.keys };
  const database = await createDatabase(engine);
  const cli = cliFor(database.url);
  try {
    if (options.dataset) await importData(cli, options.dataset);
    const write = await cli(["keys", "create", "--name", "test-write"]);
    const read = await cli(["keys", "create", "--name", "test-read", "--scopes", "read"]);
    if (write.code !== 0 || read.code !== 0) throw new Error(`keys create failed: ${write.stderr}${read.stderr}`);
    return { database, keys: { write: write.stdout.trim(), read: read.stdout.trim() } };
  } catch (error) {
    await database.drop();
    throw error;
  }
}

export async function startApp(options: AppOptions = {}): Promise<TestApp> {
  if (!fs.existsSync(path.join(root, distDir(), "BUILD_ID"))) {
    throw new Error(`No production build in ${distDir()}: run "npx next build" first (npm test does).`);
  }
  const engine = options.sameDatabaseAs?.engine ?? options.engine ?? testEngine();
  // Every key the command line prints is a secret the server's logs must never show.
  const secrets = new Set<string>();
  const cliFor =
    (databaseUrl: string): Cli =>
    async (args) => {
      const result = await runCli(databaseUrl, args);
      for (const key of keysIn(result.stdout)) secrets.add(key);
      return result;
    };
  const { database, keys } = await prepareDatabase(options, engine, cliFor);
  secrets.add(keys.write).add(keys.read);
  const cli = cliFor(database.url);
  try {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    let output = "";
    const launch = serverCommand(options.hosts);
    const child = spawn(launch.command, launch.args, {
      cwd: root,
      env: {
        ...process.env,
        DATABASE_URL: options.serverDatabaseUrl ?? database.url,
        NODE_ENV: "production",
        PORT: String(port),
        HOSTNAME: "127.0.0.1",
        RATE_LIMIT_PER_MINUTE: "0",
        RATE_LIMIT_ANONYMOUS_PER_MINUTE: "0",
        // Every request logged, as JSON: stop() checks that no line holds a secret.
        LOG_LEVEL: "info",
        LOG_FORMAT: "json",
        ...options.env,
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    child.once("exit", launch.cleanup);
    child.stdout?.on("data", (d) => (output += d));
    child.stderr?.on("data", (d) => (output += d));
    await waitForHealth(url, child, () => output);

    const request: TestApp["request"] = async (pathname, init = {}) => {
      const { key = keys.write, headers, ...rest } = init;
      const h = new Headers(headers);
      if (key !== null && !h.has("authorization")) h.set("authorization", `Bearer ${key}`);
      const res = await fetch(`${url}${pathname}`, { ...rest, headers: h });
      for (const value of cookieValues(h.get("cookie"), res.headers.getSetCookie())) secrets.add(value);
      return res;
    };
    return {
      engine,
      url,
      databaseUrl: database.url,
      keys,
      request,
      async json(pathname, init) {
        const res = await request(pathname, init);
        const text = await res.text();
        let body: unknown;
        try {
          body = JSON.parse(text);
        } catch {
          throw new Error(`${pathname} answered ${res.status} with non-JSON: ${text.slice(0, 200)}`);
        }
        return { status: res.status, body: body as any, headers: res.headers };
      },
      cli,
      output: () => output,
      server: child,
      async stop() {
        if (child.exitCode === null && child.signalCode === null) {
          const exited = new Promise((r) => child.once("exit", r));
          child.kill("SIGTERM");
          await exited;
        }
        await database.drop();
        assertNoSecrets(output, [...secrets]);
      },
    };
  } catch (error) {
    await database.drop();
    throw error;
  }
}
