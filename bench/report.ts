// The Markdown report: the varied figures first, then the cache-warm ones, then each target of
// issue 8 as met or missed (and by what).
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { type Cpu, errorCount, type Measure, type Memory, type Scenario } from "./measure";

/** The targets hold at this concurrency. */
export const TARGET_CONNECTIONS = 16;
const TARGET_P99_MS = 100;
const TARGET_SHARE_OF_FLOOR = 0.5;
const TARGET_SHORT_TERM_P99_MS = 1000;
const TARGET_MB_PER_PROCESS = 400;
/** "No request blocks the event loop for more than about 50 ms." */
const TARGET_HELD_MS = 50;

export interface Settings {
  posts: number;
  duration: number;
  warmUpSeconds: number;
  /** Seconds each server was given after its start, before its first run (--settle). */
  settleSeconds: number;
  workerCounts: number[];
  connectionLevels: number[];
  seed: number;
  samples: number;
  baseline: boolean;
}

export interface Row {
  scenario: Scenario;
  workers: number;
  connections: number;
  hits: string;
  app: Measure;
  /** The floor the row is held to: the faster of floorRuns. */
  floor: Measure;
  /** The floor measured before and after the scenarios of the same worker count and connections. */
  floorRuns: Measure[];
  baseline?: Measure;
  /** What else the run did (the webhook deliveries a PUT scenario caused). */
  note?: string;
}

function machine(): string {
  const cpus = os.cpus();
  const reclaim = fileCacheReclaim();
  return `${cpus.length} × ${cpus[0]?.model.trim() ?? "unknown CPU"}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB RAM, ${os.type()} ${os.release()}, Node ${process.version}${reclaim ? `; ${reclaim}` : ""}`;
}

/**
 * Whether the kernel drops cached file pages that nobody read for a while (a DAMON scheme that
 * pages out cold memory, as some virtual machines run to give memory back to their host), and
 * after how long. Where it does, a page of the database that no request read lately comes from
 * disk again, so a workload that reads pages all over a large database runs partly cold: the
 * report says so, since the figures depend on it.
 */
export function fileCacheReclaim(admin = "/sys/kernel/mm/damon/admin"): string | null {
  const readIn = (...parts: string[]) => {
    try {
      return fs.readFileSync(path.join(admin, ...parts), "utf8").trim();
    } catch {
      return null;
    }
  };
  const numberIn = (...parts: string[]) => Number(readIn(...parts) ?? Number.NaN);
  /** The entries of a DAMON list directory, which says how many it holds in its nr_ file. */
  const entries = (dir: string, file: string) => Array.from({ length: numberIn(dir, file) || 0 }, (_, i) => path.join(dir, String(i)));
  const ages: number[] = [];
  for (const kdamond of entries("kdamonds", "nr_kdamonds")) {
    if (readIn(kdamond, "state") !== "on") continue;
    for (const context of entries(path.join(kdamond, "contexts"), "nr_contexts")) {
      const aggregateUs = numberIn(context, "monitoring_attrs", "intervals", "aggr_us");
      for (const scheme of entries(path.join(context, "schemes"), "nr_schemes")) {
        if (readIn(scheme, "action") !== "pageout") continue;
        const minAge = numberIn(scheme, "access_pattern", "age", "min");
        if (Number.isFinite(aggregateUs) && Number.isFinite(minAge)) ages.push((minAge * aggregateUs) / 1e6);
      }
    }
  }
  if (!ages.length) return null;
  const after = Math.min(...ages);
  return `the kernel pages out memory not used for ${after.toFixed(0)} s (DAMON), cached file pages included, so database pages no request read in that time come from disk again`;
}

/**
 * Where a run's report goes: `<engine>-<posts>-<day>.md` in `dir`, or, where a run of that day
 * already wrote it, the same name with -2, -3… added: a second run never writes over the first
 * (a profiled run of two scenarios once took the place of the day's full run).
 */
export function reportFile(dir: string, engine: string, posts: number, day: string): string {
  const base = path.join(dir, `${engine}-${posts}-${day}`);
  let file = `${base}.md`;
  for (let n = 2; fs.existsSync(file); n++) file = `${base}-${n}.md`;
  return file;
}

export const f0 = (n: number) => n.toFixed(0);
export const n0 = (n: number) => Math.round(n).toLocaleString("en");
export const ms = (n: number) => (Number.isFinite(n) ? n.toFixed(0) : "failed");
const ratio = (a: number, b: number) => (b ? `${((a / b) * 100).toFixed(0)}%` : "-");
const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? "" : word.endsWith("s") ? "es" : "s"}`;

export function errorText(m: Measure): string {
  const parts = Object.entries(m.non2xx).map(([code, count]) => `${n0(count)} × ${code}`);
  if (m.timeouts) parts.push(`${n0(m.timeouts)} timeouts`);
  if (m.errors > m.timeouts) parts.push(`${n0(m.errors - m.timeouts)} connection errors`);
  return parts.length ? `**${parts.join(", ")}**` : "0";
}

/** A run's longest event-loop hold: "-" where the server did not report its holds. */
export const heldText = (heldMs: number | null) => (heldMs === null ? "-" : f0(heldMs));

const memoryText = (m: Memory) =>
  `${f0(m.maxProcessMb)}${m.maxMappedMb >= 1 ? ` (+${f0(m.maxMappedMb)} mapped)` : ""} | ${f0(m.maxSumMb)} (${m.processes})`;

/** The parts of the machine whose CPU time is given, in the order the report gives them. */
const CPU_PARTS = ["server", "dispatcher", "database", "bench"] as const;
const ms2 = (n: number | null) => (n === null ? "-" : n.toFixed(2));
/** CPU ms per answer: the server, its webhook dispatcher, the database's processes, the bench. */
export const cpuText = (cpu: Cpu) => CPU_PARTS.map((part) => ms2(cpu[part])).join(" / ");
export const CPU_HEADER = `CPU ms per answer: ${CPU_PARTS.join(" / ")}`;

function floorLine(rows: Row[], workers: number, levels: number[]): string {
  const floors = levels.map((c) => {
    const runs = rows.find((r) => r.workers === workers && r.connections === c)?.floorRuns ?? [];
    const described = runs.map((f) => `${n0(f.rps)} req/s (p50 ${ms(f.p50)} ms, p99 ${ms(f.p99)} ms, errors ${errorText(f)})`);
    return runs.length ? `${c} connections: ${described.join(" before the scenarios, ")} after` : "";
  });
  return `Floor (GET /api/health, same server; the scenarios are held to the faster run): ${floors.filter(Boolean).join("; ")}.`;
}

function variedTable(rows: Row[]): string[] {
  const lines = [
    `| scenario | conns | distinct requests | repeats | sample hits | req/s | p50 ms | p99 ms | errors | health p99 ms | loop held ms | app / floor | max MB one process | max MB sum (processes) | ${CPU_HEADER} |`,
    "|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|",
  ];
  for (const r of rows) {
    lines.push(
      `| ${r.scenario.name}: ${r.scenario.label} | ${r.connections} | ${n0(r.scenario.requests.size)} | ${n0(r.app.repeats)} | ${r.hits} | ${n0(r.app.rps)} | ${ms(r.app.p50)} | ${ms(r.app.p99)} | ${errorText(r.app)} | ${ms(r.app.probe.p99)} | ${heldText(r.app.heldMs)} | ${ratio(r.app.rps, r.floor.rps)} | ${memoryText(r.app.memory)} | ${cpuText(r.app.cpu)} |`,
    );
  }
  return lines;
}

function warmTable(rows: Row[]): string[] {
  const withBaseline = rows.some((r) => r.baseline);
  const lines = [
    `| scenario | conns | total | req/s | p50 ms | p99 ms | errors | health p99 ms | loop held ms | app / floor | max MB one process | max MB sum (processes) | ${CPU_HEADER} |${withBaseline ? " baseline req/s | baseline p99 ms | baseline errors | app / baseline |" : ""}`,
    `|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|${withBaseline ? "---:|---:|---:|---:|" : ""}`,
  ];
  for (const r of rows) {
    const b = r.baseline;
    const baseline = withBaseline ? (b ? ` ${n0(b.rps)} | ${ms(b.p99)} | ${errorText(b)} | ${ratio(r.app.rps, b.rps)} |` : " - | - | - | - |") : "";
    lines.push(
      `| ${r.scenario.label}${r.note ? ` (${r.note})` : ""} | ${r.connections} | ${r.hits} | ${n0(r.app.rps)} | ${ms(r.app.p50)} | ${ms(r.app.p99)} | ${errorText(r.app)} | ${ms(r.app.probe.p99)} | ${heldText(r.app.heldMs)} | ${ratio(r.app.rps, r.floor.rps)} | ${memoryText(r.app.memory)} | ${cpuText(r.app.cpu)} |${baseline}`,
    );
  }
  return lines;
}

/** "met", or "missed by" and the rows that miss, per worker count. */
function verdict(rows: Row[], misses: (r: Row) => string | undefined): string {
  if (!rows.length) return `not measured (not run at concurrency ${TARGET_CONNECTIONS})`;
  const missed = rows.flatMap((r) => {
    const why = misses(r);
    return why ? [`${r.scenario.name} with ${plural(r.workers, "worker")} (${why})`] : [];
  });
  return missed.length ? `missed by ${missed.join(", ")}` : "met";
}

/** How much a subscribed webhook endpoint may cost a PUT: delivery is off the request's path. */
const WEBHOOK_COST = 0.1;

/**
 * What an endpoint adds to a PUT's CPU time, in all and by part: steadier than the throughput,
 * which on a busy machine moves by more than the 10% it is held to from one run to the next.
 */
export function cpuChange(plain: Cpu, webhook: Cpu): string {
  const sum = (cpu: Cpu) => CPU_PARTS.reduce((total, part) => total + (cpu[part] ?? 0), 0);
  const parts = CPU_PARTS.flatMap((part) => {
    const [before, after] = [plain[part], webhook[part]];
    if (before === null || after === null) return [];
    const change = after - before;
    return [`${part} ${change >= 0 ? "+" : "−"}${Math.abs(change).toFixed(2)}`];
  });
  return `CPU per PUT ${sum(plain).toFixed(2)} → ${sum(webhook).toFixed(2)} ms: ${parts.join(", ")}`;
}

export function webhookVerdict(rows: Row[]): string {
  const pairs = rows.flatMap((webhook) => {
    if (webhook.scenario.name !== "put-comment-webhook") return [];
    const plain = rows.find((r) => r.scenario.name === "put-comment" && r.workers === webhook.workers && r.connections === webhook.connections);
    return plain ? [{ plain, webhook }] : [];
  });
  if (!pairs.length) return "not measured (both PUT scenarios must run)";
  const verdicts = pairs.map(({ plain, webhook }) => {
    const throughput = webhook.app.rps / plain.app.rps - 1;
    const p99 = webhook.app.p99 / plain.app.p99 - 1;
    const met = throughput >= -WEBHOOK_COST && p99 <= WEBHOOK_COST;
    const percent = (x: number) => `${x >= 0 ? "+" : "−"}${Math.abs(x * 100).toFixed(1)}%`;
    return `${met ? "met" : "missed"} with ${plural(webhook.workers, "worker")} at ${webhook.connections} connections (throughput ${percent(throughput)}, p99 ${percent(p99)}; ${cpuChange(plain.app.cpu, webhook.app.cpu)})`;
  });
  return verdicts.join("; ");
}

function targets(rows: Row[]): string[] {
  const atTarget = rows.filter((r) => r.connections === TARGET_CONNECTIONS && r.scenario.kind === "varied");
  const fast = atTarget.filter((r) => r.scenario.fastTarget);
  const short = atTarget.filter((r) => !r.scenario.fastTarget);
  const all = rows.flatMap((r) => [r.app, ...r.floorRuns]);
  const maxProcess = Math.max(0, ...all.map((m) => m.memory.maxProcessMb));
  const maxSum = Math.max(0, ...all.map((m) => m.memory.maxSumMb));
  const maxMapped = Math.max(0, ...all.map((m) => m.memory.maxMappedMb));
  const failing = rows.filter((r) => errorCount(r.app) > 0);
  return [
    "## Targets",
    "",
    `At concurrency ${TARGET_CONNECTIONS}, each against the floor of the same worker count:`,
    "",
    `- Every varied read but the short terms at p99 < ${TARGET_P99_MS} ms: ${verdict(fast, (r) => (r.app.p99 >= TARGET_P99_MS ? `p99 ${ms(r.app.p99)} ms` : undefined))}.`,
    `- Every varied read but the short terms at ≥ ${TARGET_SHARE_OF_FLOOR * 100}% of the floor's throughput: ${verdict(fast, (r) => (r.app.rps < TARGET_SHARE_OF_FLOOR * r.floor.rps ? ratio(r.app.rps, r.floor.rps) : undefined))}.`,
    `- Short-term search at p99 < ${TARGET_SHORT_TERM_P99_MS} ms: ${verdict(short, (r) => (r.app.p99 >= TARGET_SHORT_TERM_P99_MS ? `p99 ${ms(r.app.p99)} ms` : undefined))}.`,
    `- The floor stays fast meanwhile (the health probe's p99 < ${TARGET_P99_MS} ms during the short-term run): ${verdict(short, (r) => (r.app.probe.p99 >= TARGET_P99_MS ? `probe p99 ${ms(r.app.probe.p99)} ms` : undefined))}.`,
    `- No request holds a serving process's event loop for more than about ${TARGET_HELD_MS} ms (the longest hold in each varied run at concurrency ${TARGET_CONNECTIONS}, short terms included): ${verdict(atTarget, (r) => (r.app.heldMs === null ? "not reported" : r.app.heldMs > TARGET_HELD_MS ? `held ${f0(r.app.heldMs)} ms` : undefined))}.`,
    `- Memory < ${TARGET_MB_PER_PROCESS} MB per process, over every run: ${maxProcess < TARGET_MB_PER_PROCESS ? "met" : `missed by ${f0(maxProcess - TARGET_MB_PER_PROCESS)} MB`} (largest process ${f0(maxProcess)} MB; largest sum over a server's processes ${f0(maxSum)} MB${maxMapped >= 1 ? `; besides, up to ${f0(maxMapped)} MB of the database file mapped in one process` : ""}).`,
    `- A PUT with one subscribed webhook endpoint within ${WEBHOOK_COST * 100}% of the PUT without, in throughput and p99 (each the median of its alternated runs): ${webhookVerdict(rows)}.`,
    `- No errors, non-2xx answers or timeouts in any run: ${failing.length ? `missed by ${failing.map((r) => `${r.scenario.name}@${r.connections} with ${plural(r.workers, "worker")} (${errorText(r.app)})`).join(", ")}` : "met"}.`,
    "",
  ];
}

/** A server's settling after its start (run.ts's settle): the server's CPU over its last seconds, a share of one core. */
export interface Settled {
  tailSeconds: number;
  tailCpuShare: number;
}

export interface Context {
  settings: Settings;
  engine: string;
  /** Which code the app's build was made from (bench/source.ts). */
  code: string;
  /** What the seed made, as the seed command summed it up. */
  data: string;
  version: string;
  loadAtStart: number;
  /** Worker count asked for, and the processes its server ran, by name. */
  processes: Map<number, string[]>;
  /** By worker count: how the server settled after its start, null when it was not given time. */
  settled: Map<number, Settled | null>;
}

/** What each server was given after its start, before its first run. */
export function settleLine(context: Context): string {
  const { settleSeconds, workerCounts } = context.settings;
  if (!settleSeconds) {
    return "- Settling: none (`--settle 0`): each server's first runs began as soon as it answered, while it still read its search aids (on SQLite the indexes' vocabularies, the sort orders' ranks, the commonest words' bits; the deep pages' positions), so they measure its start as well.";
  }
  const tails = workerCounts.map((workers) => {
    const settled = context.settled.get(workers);
    return settled ? `${workers}: ${(100 * settled.tailCpuShare).toFixed(0)}%` : `${workers}: not run`;
  });
  return `- Settling: after its start, each server had ${settleSeconds} s before its first run, with one sampled request of each GET scenario a second, so that it read its search aids first (on SQLite the indexes' vocabularies, the sort orders' ranks, the commonest words' bits, which each process reads from its start, held 21 s after a start at a million posts, idle; the deep pages' positions, which the first deep page starts); its CPU over the last 5 s of them, those requests included, as a share of one core, by WEB_CONCURRENCY: ${tails.join(", ")}. The first runs after a start without it are slower (\`--settle 0\`).`;
}

export function report(context: Context, rows: Row[]): string {
  const { settings } = context;
  const varied = rows.filter((r) => r.scenario.kind === "varied");
  const warm = rows.filter((r) => r.scenario.kind === "warm");
  const ran = (workers: number) => {
    const names = context.processes.get(workers) ?? [];
    const counts = [...new Set(names)].map((name) => `${name} × ${names.filter((n) => n === name).length}`).join(", ");
    const nodes = names.filter((n) => n === "node").length;
    return nodes >= (workers > 1 ? workers + 1 : 1) ? counts : `**${counts}: the server did not start ${workers} workers**`;
  };
  const title = (what: string, workers: number) => {
    const nodes = (context.processes.get(workers) ?? []).filter((n) => n === "node").length;
    const started = nodes >= (workers > 1 ? workers + 1 : 1);
    return `## ${what}, WEB_CONCURRENCY=${workers}${started ? "" : ` (but ${plural(nodes, "node process")} ran)`}`;
  };
  const lines = [
    `# Benchmark: ${context.engine}, ${settings.posts.toLocaleString("en")} posts`,
    "",
    `- Date: ${new Date().toISOString()}`,
    `- Machine: ${machine()}`,
    `- Code: the app's build was made from ${context.code}`,
    `- Database: ${context.version}`,
    `- Data: ${context.data}`,
    `- Load: autocannon, ${settings.duration} s per run after a ${settings.warmUpSeconds} s warm-up, on the same machine; the app is \`server.ts\` (production build) with WEB_CONCURRENCY = ${settings.workerCounts.map((w) => `${w} (${ran(w)})`).join(", ")}; every request counted by the rate limiter, as by default, against a limit of 10,000,000 a minute that no run reaches.`,
    settleLine(context),
    `- Varied scenarios (bench/workload.ts, seed ${settings.seed}) send a different request each time: each walks its own space of distinct requests, built from the seed's vocabulary, in a shuffled order, and the walk goes on across warm-ups, connection levels and worker counts, so a request is sent twice only once its space is used up ("repeats"). Before any load, ${settings.samples} requests of each (drawn with another seed) had to answer 200; "sample hits" is the range of their totals.`,
    "- Cache-warm scenarios repeat one request for the whole run, so every cache answers them: a ceiling, not what users get.",
    "- req/s counts 2xx answers only; latencies count every answer; errors (non-2xx answers, timeouts after 10 s, connection errors) are listed per row, never dropped.",
    "- Floor: GET /api/health on the same server (a route handler with no database work), same worker count and connections. Health p99: while each run goes on, a probe in a thread of its own asks GET /api/health every 50 ms over one more connection.",
    "- Memory: resident set size of the server's process and of every descendant (its workers and its webhook dispatcher), sampled every 200 ms: the largest single process, and the largest sum with the number of processes. On SQLite the read threads map the database file (SQLITE_MMAP_MB); the pages of it a process has mapped are the kernel's page cache, shared with every reader of the file and dropped first under pressure, so they are shown apart (\"+N mapped\", the most in one process, read every 2 s; each read thread maps the file, so a page two threads read counts twice) and not counted against the target: there a process's memory is its anonymous and shared memory and the other files it maps (bench/measure.ts).",
    `- Machine load (1-minute load average) at the start and end of the run: ${context.loadAtStart.toFixed(1)} / ${(os.loadavg()[0] ?? 0).toFixed(1)}. Other work on the machine (colleagues' test runs) shows up as noise.`,
    settings.baseline
      ? "- Baseline: bench/baseline-server.ts (node:http, the same driver, hand-written SQL), on the cache-warm scenarios only, during the first worker count. Its SQL is the naive plan (it counts every total and sorts every match on each request), so it is slower than the app wherever the app caches a total or walks an index; read it as a reference, not as a bound."
      : "- Baseline: not run (`--baseline` turns it on, for the cache-warm scenarios only). Its hand-written SQL counts every total and sorts every match on every request, as the app did before its totals and plans were tuned: at 1,000,000 posts a common word's page took 1.5 s in it and an unfiltered count 16-300 ms on the event loop, so its runs queued into 10 s timeouts (0 req/s) while a one-row read reached 16,000 req/s. It would need the app's plans to be a fair reference.",
    "",
  ];
  for (const workers of settings.workerCounts) {
    const mine = varied.filter((r) => r.workers === workers);
    if (!mine.length) continue;
    lines.push(title("Varied workload", workers), "", floorLine(rows, workers, settings.connectionLevels), "", ...variedTable(mine), "");
  }
  for (const workers of settings.workerCounts) {
    const mine = warm.filter((r) => r.workers === workers);
    if (!mine.length) continue;
    lines.push(title("Cache-warm (one repeated request) and the PUTs", workers), "", floorLine(rows, workers, settings.connectionLevels), "", ...warmTable(mine), "");
  }
  lines.push(...targets(rows));
  return lines.join("\n");
}

