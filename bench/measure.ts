// Measuring one run: autocannon for throughput and latency, a health probe beside it for what
// the load does to everything else, the memory of the server's whole process tree (its
// workers included), and the CPU time each part of the machine spent per answer, read from /proc.
import { type ChildProcess, execFileSync } from "node:child_process";
import fs from "node:fs";
import { Worker } from "node:worker_threads";
import autocannon, { type Result } from "autocannon";
import { EVENT_LOOP_CHECK_MS } from "../lib/event-loop";
import type { Draw } from "./workload";

export type Kind = "varied" | "warm";

/** What a run sends: a method, maybe a form body (or one per request), and where each request's path comes from. */
export type Load = Pick<Scenario, "method" | "requests"> & { body?: string; nextBody?: () => string };

export interface Scenario {
  name: string;
  label: string;
  kind: Kind;
  method: "GET" | "PUT";
  body?: string;
  /** A different body for each request (an edit that really changes the comment). */
  nextBody?: () => string;
  /** Before and after the scenario's runs (subscribing a webhook endpoint); after() says what happened meanwhile. */
  setUp?: () => Promise<void>;
  tearDown?: () => Promise<string>;
  /** Held to the reads' targets (p99, share of the floor); short terms have their own. */
  fastTarget: boolean;
  /** Where the requests come from: one walk per engine run, so nothing repeats across runs. */
  requests: Draw;
  /** A few requests to check before loading, and what their answers held. */
  samples: string[];
  noMatches?: boolean;
}

export interface Server {
  process: ChildProcess;
  port: number;
  /** Processes seen in the server's tree since it started (the server and every descendant), by name. */
  seen: Map<number, string>;
  /** Whether the database runs in processes of its own (PostgreSQL), whose CPU time is counted apart. */
  databaseProcesses: boolean;
  /** The SQLite database file, whose pages its readers map (mappedFilesMb); none on PostgreSQL. */
  databaseFile?: string;
  /**
   * The event-loop holds its serving processes reported (lib/event-loop.ts, each process's
   * longest of the second before), as they arrived; none from a server that does not report them.
   */
  holds: Hold[];
}

export interface Hold {
  /** When the line arrived (Date.now()). */
  at: number;
  longestMs: number;
}

/**
 * Reads a server's stderr: lines reporting an event-loop hold are kept (not shown), the rest
 * passed on to this process's stderr. The server logs in text (`... The event loop was held up
 * longestMs=12 ...`).
 */
export function readHolds(stderr: NodeJS.ReadableStream, holds: Hold[], message: string): void {
  const pattern = new RegExp(`${message} longestMs=(\\d+)`);
  let rest = "";
  stderr.setEncoding("utf8");
  stderr.on("data", (chunk: string) => {
    const lines = (rest + chunk).split("\n");
    rest = lines.pop() ?? "";
    const shown: string[] = [];
    for (const line of lines) {
      const held = pattern.exec(line);
      if (held) holds.push({ at: Date.now(), longestMs: Number(held[1]) });
      else shown.push(`${line}\n`);
    }
    if (shown.length) process.stderr.write(shown.join(""));
  });
  stderr.on("end", () => {
    if (rest) process.stderr.write(`${rest}\n`);
  });
}

/**
 * The longest hold reported for a run from `start` to `end`: each report covers the second
 * before it, so the first after `end` is waited for (at most a little over a second). Null
 * when the server reported none at all (it does not watch its loop).
 */
export async function longestHold(server: Server, start: number, end: number, checkMs: number): Promise<number | null> {
  const until = end + checkMs + 250;
  while (Date.now() < until && !server.holds.some((h) => h.at > end)) await new Promise((r) => setTimeout(r, 50));
  if (!server.holds.length) return null;
  const during = server.holds.filter((h) => h.at > start && h.at <= until);
  return Math.max(0, ...during.map((h) => h.longestMs));
}

/** The process and all its descendants, from /proc/<pid>/task/<tid>/children (Linux). */
export function processTree(pid: number): number[] {
  const out = [pid];
  for (let i = 0; i < out.length; i++) {
    let tasks: string[] = [];
    try {
      tasks = fs.readdirSync(`/proc/${out[i]}/task`);
    } catch {
      continue;
    }
    for (const task of tasks) {
      try {
        const children = fs.readFileSync(`/proc/${out[i]}/task/${task}/children`, "utf8");
        out.push(...children.split(" ").filter(Boolean).map(Number));
      } catch {
        // the thread ended meanwhile
      }
    }
  }
  return out;
}

/** Notes the processes of a server's tree, by name (node, and whatever helpers they start). */
export function noteProcesses(server: Server, tree: number[]): void {
  for (const pid of tree) {
    if (server.seen.has(pid)) continue;
    try {
      server.seen.set(pid, fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim());
    } catch {
      // gone already
    }
  }
}

export const nodeProcesses = (server: Server) => [...server.seen.values()].filter((name) => name === "node").length;

/** A process's resident set and, of it, the pages of files it maps, in MB; zeros once it is gone. */
function statusMb(pid: number): { rss: number; files: number } {
  try {
    const status = fs.readFileSync(`/proc/${pid}/status`, "utf8");
    const kb = (field: string) => Number(new RegExp(`${field}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
    return { rss: kb("VmRSS") / 1024, files: kb("RssFile") / 1024 };
  } catch {
    return { rss: 0, files: 0 };
  }
}

/**
 * The pages a process maps of `file` and of every other file, in MB, from one read of
 * /proc/<pid>/smaps (Linux); null once it is gone. The kernel walks every page of every mapping
 * to write it: with SQLite's readers mapping 2 GB of the database, five reads a second cost the
 * benchmark 0.8 ms of CPU per answer on the cores it shares with the server, so it is read
 * every 2 s only (memorySampler).
 */
function mappedFilesMb(pid: number, file: string): { database: number; others: number } | null {
  try {
    let database = 0;
    let others = 0;
    let mapping: "database" | "other" | "none" = "none";
    for (const line of fs.readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
      // A mapping's first line: its address range, permissions, offset, device, inode and the
      // file it maps, if any (anonymous memory has inode 0).
      const head = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ (\d+)\s*(.*)$/.exec(line);
      if (head) mapping = head[1] === "0" ? "none" : head[2] === file ? "database" : "other";
      else if (mapping !== "none" && line.startsWith("Rss:")) {
        const mb = Number(/(\d+)/.exec(line)?.[1] ?? 0) / 1024;
        if (mapping === "database") database += mb;
        else others += mb;
      }
    }
    return { database, others };
  } catch {
    return null;
  }
}

/** Clock ticks per second, the unit of /proc/<pid>/stat's CPU times. */
const TICKS_PER_SECOND = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"]).toString().trim()) || 100;
  } catch {
    return 100;
  }
})();

/** A process's CPU time so far, user and system, every thread, in ms; 0 once it is gone. */
export function cpuMsOf(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    // The name, in parentheses, may hold spaces: the fields are counted after it (utime is the 14th).
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / TICKS_PER_SECOND;
  } catch {
    return 0;
  }
}

const readOr = (file: string, fallback: string) => {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return fallback;
  }
};

/** The webhook dispatcher: the server's child running `feedback webhooks deliver`. */
const isDispatcher = (pid: number) => readOr(`/proc/${pid}/cmdline`, "").includes("webhooks\0deliver");

/** Every PostgreSQL process of the machine (its backends, the WAL writer, autovacuum...). */
export function postgresProcesses(): number[] {
  return fs
    .readdirSync("/proc")
    .filter((entry) => /^\d+$/.test(entry) && readOr(`/proc/${entry}/comm`, "").trim() === "postgres")
    .map(Number);
}

/** CPU time spent during a run, in ms per 2xx answer, by part. */
export interface Cpu {
  /** The server's processes (its workers, the SQLite read threads), the dispatcher apart. */
  server: number;
  dispatcher: number;
  /** PostgreSQL's processes; null when the database runs inside the server (SQLite). */
  database: number | null;
  /** This process: the load generator, the health probe and the webhook receiver. */
  bench: number;
}

type CpuPart = "server" | "dispatcher" | "database";

/** A reading: each process's CPU time so far, and its part; and this process's own. */
export interface CpuReading {
  processes: Map<number, { part: CpuPart; ms: number }>;
  bench: number;
}

export function readCpu(server: Server): CpuReading {
  const processes = new Map<number, { part: CpuPart; ms: number }>();
  for (const pid of processTree(server.process.pid ?? 0)) processes.set(pid, { part: isDispatcher(pid) ? "dispatcher" : "server", ms: cpuMsOf(pid) });
  if (server.databaseProcesses) for (const pid of postgresProcesses()) processes.set(pid, { part: "database", ms: cpuMsOf(pid) });
  const own = process.cpuUsage();
  return { processes, bench: (own.user + own.system) / 1000 };
}

/**
 * The CPU time each part spent between two readings, process by process: one that started
 * between them counts from its start; one that ended between them (a worker that died, a
 * database connection closed) is missing from the second reading, and its time since the
 * first is lost rather than taken off the others'.
 */
export function cpuSpent(before: CpuReading, after: CpuReading): Record<CpuPart | "bench", number> {
  const spent = { server: 0, dispatcher: 0, database: 0, bench: Math.max(0, after.bench - before.bench) };
  for (const [pid, { part, ms }] of after.processes) spent[part] += Math.max(0, ms - (before.processes.get(pid)?.ms ?? 0));
  return spent;
}

function cpuPerAnswer(before: CpuReading, after: CpuReading, answers: number, server: Server): Cpu {
  const spent = cpuSpent(before, after);
  const per = (ms: number) => (answers ? ms / answers : 0);
  return { server: per(spent.server), dispatcher: per(spent.dispatcher), database: server.databaseProcesses ? per(spent.database) : null, bench: per(spent.bench) };
}

export interface Memory {
  /** The largest resident set of any one process of the server's tree, without the database file's mapped pages. */
  maxProcessMb: number;
  /** The largest sum over the tree at one moment, the same way. */
  maxSumMb: number;
  /** The most pages of the SQLite database file one process had mapped (mappedFilesMb). */
  maxMappedMb: number;
  processes: number;
}

/**
 * Samples the resident memory of a server's whole process tree until stopped, every 200 ms. On
 * SQLite a process's own memory is its anonymous and shared memory (VmRSS less RssFile, from
 * one read of `status`) and the pages of files other than the database it maps, as last read
 * from `smaps` (mappedFilesMb, every 2 s: the program's code and libraries, which barely move).
 * The database's pages are the kernel's page cache, shared by every reader of the file and
 * dropped first under pressure: shown apart, not counted. (Taking VmRSS less the database's
 * pages read from `smaps` at another moment counted a mapping dropped in between as the
 * process's own: once, 1,329 MB resident against 3 MB of the database mapped.)
 */
function memorySampler(server: Server): { stop(): Memory } {
  const memory: Memory = { maxProcessMb: 0, maxSumMb: 0, maxMappedMb: 0, processes: 0 };
  const files = new Map<number, { database: number; others: number }>();
  let samples = 0;
  const sample = () => {
    const tree = processTree(server.process.pid ?? 0);
    const file = server.databaseFile;
    if (file && samples++ % 10 === 0) {
      for (const pid of tree) {
        const mapped = mappedFilesMb(pid, file);
        if (mapped) files.set(pid, mapped);
      }
    }
    const sizes = tree.map((pid) => {
      const status = statusMb(pid);
      const mapped = files.get(pid);
      return file && mapped ? status.rss - status.files + mapped.others : status.rss;
    });
    noteProcesses(server, tree);
    memory.maxProcessMb = Math.max(memory.maxProcessMb, ...sizes);
    memory.maxMappedMb = Math.max(memory.maxMappedMb, ...tree.map((pid) => files.get(pid)?.database ?? 0));
    memory.maxSumMb = Math.max(memory.maxSumMb, sizes.reduce((a, b) => a + b, 0));
    memory.processes = Math.max(memory.processes, tree.length);
  };
  sample();
  const timer = setInterval(sample, 200);
  return {
    stop() {
      clearInterval(timer);
      sample();
      return memory;
    },
  };
}

// The health probe runs in a thread of its own, so the load generator's work on this thread
// does not show up as the server's latency.
const PROBE = `
const { parentPort, workerData } = require("node:worker_threads");
const latencies = [];
let running = true;
parentPort.on("message", () => { running = false; });
(async () => {
  while (running) {
    const started = performance.now();
    try {
      const response = await fetch(workerData.url);
      await response.arrayBuffer();
      latencies.push(response.ok ? performance.now() - started : Infinity);
    } catch {
      latencies.push(Infinity);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  parentPort.postMessage(latencies);
})();
`;

interface Probe {
  p50: number;
  p99: number;
  count: number;
}

/** GET /api/health every 50 ms over one connection while the load runs; a failure counts as infinitely slow. */
function healthProbe(server: Server): { stop(): Promise<Probe> } {
  const worker = new Worker(PROBE, { eval: true, workerData: { url: `http://127.0.0.1:${server.port}/api/health` } });
  const done = new Promise<number[]>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return {
    async stop() {
      worker.postMessage("stop");
      const latencies = (await done).sort((a, b) => a - b);
      await worker.terminate();
      const at = (q: number) => latencies[Math.min(latencies.length - 1, Math.floor(q * latencies.length))] ?? 0;
      return { p50: at(0.5), p99: at(0.99), count: latencies.length };
    },
  };
}

export interface Measure {
  /** 2xx responses per second. */
  rps: number;
  p50: number;
  p99: number;
  responses: number;
  non2xx: Record<string, number>;
  /** Connection errors, timeouts included. */
  errors: number;
  timeouts: number;
  probe: Probe;
  memory: Memory;
  cpu: Cpu;
  /** Requests of the measured run whose value had been sent before in this engine's run. */
  repeats: number;
  /** The longest time a serving process's event loop was held during the run, in ms (null: not reported). */
  heldMs: number | null;
}

export const errorCount = (m: Measure) => m.errors + Object.values(m.non2xx).reduce((a, b) => a + b, 0);

export async function load(server: Server, key: string, scenario: Load, connections: number, seconds: number): Promise<Measure> {
  const headers: Record<string, string> = { authorization: `Bearer ${key}` };
  if (scenario.body || scenario.nextBody) headers["content-type"] = "application/x-www-form-urlencoded";
  const drawnBefore = scenario.requests.drawn;
  const memory = memorySampler(server);
  const probe = healthProbe(server);
  let result: Result;
  let memoryUsed: Memory;
  let health: Probe;
  const cpuBefore = readCpu(server);
  const start = Date.now();
  let cpuAfter: CpuReading;
  try {
    result = await autocannon({
      url: `http://127.0.0.1:${server.port}`,
      method: scenario.method,
      body: scenario.body,
      headers,
      connections,
      duration: seconds,
      requests: [
        {
          setupRequest: (request) => ({
            ...request,
            path: scenario.requests.next(),
            ...(scenario.nextBody ? { body: scenario.nextBody() } : {}),
          }),
        },
      ],
    });
  } finally {
    cpuAfter = readCpu(server);
    memoryUsed = memory.stop();
    health = await probe.stop();
  }
  const heldMs = await longestHold(server, start, Date.now(), EVENT_LOOP_CHECK_MS);
  const drawnAfter = scenario.requests.drawn;
  const non2xx: Record<string, number> = {};
  for (const [code, { count }] of Object.entries(result.statusCodeStats)) if (!code.startsWith("2")) non2xx[code] = count;
  return {
    rps: result["2xx"] / result.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    responses: result["1xx"] + result["2xx"] + result["3xx"] + result["4xx"] + result["5xx"],
    non2xx,
    errors: result.errors,
    timeouts: result.timeouts,
    probe: health,
    memory: memoryUsed,
    cpu: cpuPerAnswer(cpuBefore, cpuAfter, result["2xx"], server),
    repeats: Math.max(0, drawnAfter - Math.max(drawnBefore, scenario.requests.size)),
    heldMs,
  };
}

