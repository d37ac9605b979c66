import assert from "node:assert/strict";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { describe, test } from "node:test";
import { type Cpu, type CpuReading, cpuMsOf, cpuSpent, type Measure, type Scenario } from "./measure";
import { type Context, cpuChange, cpuText, fileCacheReclaim, type Row, type Settled, reportFile, settleLine, webhookVerdict } from "./report";

// The benchmark's verdict on the webhook's cost to a PUT, from the two PUT rows.

const cpu = (server: number, dispatcher: number, database: number | null, bench: number): Cpu => ({ server, dispatcher, database, bench });
const PLAIN_CPU = cpu(2.1, 0, 0.62, 0.28);
const WEBHOOK_CPU = cpu(2.1, 0.29, 0.87, 0.33);

const row = (name: string, rps: number, p99: number, workers = 1): Row =>
  ({
    scenario: { name } as Scenario,
    workers,
    connections: 16,
    hits: "",
    app: { rps, p99, cpu: name === "put-comment" ? PLAIN_CPU : WEBHOOK_CPU } as Measure,
    floor: {} as Measure,
    floorRuns: [],
  }) as Row;

const WEBHOOK_CPU_TEXT = "CPU per PUT 3.00 → 3.59 ms: server +0.00, dispatcher +0.29, database +0.25, bench +0.05";

describe("webhookVerdict", () => {
  test("met within 10% on both throughput and p99", () => {
    assert.equal(
      webhookVerdict([row("put-comment", 600, 50), row("put-comment-webhook", 560, 54)]),
      `met with 1 worker at 16 connections (throughput −6.7%, p99 +8.0%; ${WEBHOOK_CPU_TEXT})`,
    );
  });

  test("missed when either is past 10%, per worker count", () => {
    assert.equal(
      webhookVerdict([row("put-comment", 600, 50), row("put-comment-webhook", 590, 60), row("put-comment", 900, 40, 2), row("put-comment-webhook", 700, 40, 2)]),
      `missed with 1 worker at 16 connections (throughput −1.7%, p99 +20.0%; ${WEBHOOK_CPU_TEXT}); missed with 2 workers at 16 connections (throughput −22.2%, p99 +0.0%; ${WEBHOOK_CPU_TEXT})`,
    );
  });

  test("says so when a PUT scenario did not run", () => {
    assert.equal(webhookVerdict([row("put-comment", 600, 50)]), "not measured (both PUT scenarios must run)");
  });
});

// CPU time per answer, by part: read from /proc, and compared between the two PUTs.

describe("CPU time", () => {
  test("a process's CPU time is read from /proc and grows with the work it does", () => {
    const before = cpuMsOf(process.pid);
    const until = performance.now() + 200;
    let spin = 0;
    while (performance.now() < until) spin++;
    const after = cpuMsOf(process.pid);
    assert.ok(spin > 0);
    assert.ok(after - before >= 100, `200 ms of spinning counted ${after - before} ms`);
    assert.equal(cpuMsOf(2 ** 22 + 1), 0, "a process that does not exist has none");
  });

  test("time is counted process by process: one that ended is not taken off the others, one that started counts whole", () => {
    const reading = (bench: number, ...processes: [number, "server" | "dispatcher" | "database", number][]): CpuReading => ({
      processes: new Map(processes.map(([pid, part, ms]) => [pid, { part, ms }])),
      bench,
    });
    const before = reading(100, [1, "server", 1000], [2, "dispatcher", 50], [3, "database", 400], [4, "database", 900]);
    // Connection 4 closed during the run, connection 5 opened.
    const after = reading(160, [1, "server", 1300], [2, "dispatcher", 80], [3, "database", 500], [5, "database", 40]);
    assert.deepEqual(cpuSpent(before, after), { server: 300, dispatcher: 30, database: 140, bench: 60 });
  });

  test("the database's part is left out where it runs inside the server (SQLite)", () => {
    assert.equal(cpuText(cpu(2.1, 0.3, null, 0.28)), "2.10 / 0.30 / - / 0.28");
    assert.equal(cpuChange(cpu(2, 0, null, 0.3), cpu(2.2, 0.3, null, 0.35)), "CPU per PUT 2.30 → 2.85 ms: server +0.20, dispatcher +0.30, bench +0.05");
  });
});

// The machine line names a kernel that drops cold cached pages, read from DAMON's sysfs tree.

describe("fileCacheReclaim", () => {
  /** A DAMON admin tree with one kdamond, one context and the given scheme. */
  const tree = (state: string, action: string, minAge: string, aggregateUs: string) => {
    const admin = fs.mkdtempSync(path.join(os.tmpdir(), "damon-"));
    const put = (file: string, text: string) => {
      fs.mkdirSync(path.dirname(path.join(admin, file)), { recursive: true });
      fs.writeFileSync(path.join(admin, file), `${text}\n`);
    };
    put("kdamonds/nr_kdamonds", "1");
    put("kdamonds/0/state", state);
    put("kdamonds/0/contexts/nr_contexts", "1");
    put("kdamonds/0/contexts/0/monitoring_attrs/intervals/aggr_us", aggregateUs);
    put("kdamonds/0/contexts/0/schemes/nr_schemes", "1");
    put("kdamonds/0/contexts/0/schemes/0/action", action);
    put("kdamonds/0/contexts/0/schemes/0/access_pattern/age/min", minAge);
    return admin;
  };

  test("a running pageout scheme: after its minimum age in aggregation intervals", () => {
    const admin = tree("on", "pageout", "6", "5000000");
    try {
      assert.match(fileCacheReclaim(admin) ?? "", /^the kernel pages out memory not used for 30 s \(DAMON\)/);
    } finally {
      fs.rmSync(admin, { recursive: true, force: true });
    }
  });

  test("nothing when DAMON is absent, stopped, or only watching", () => {
    const stopped = tree("off", "pageout", "6", "5000000");
    const watching = tree("on", "stat", "6", "5000000");
    try {
      assert.equal(fileCacheReclaim(path.join(os.tmpdir(), "no-damon-here")), null);
      assert.equal(fileCacheReclaim(stopped), null);
      assert.equal(fileCacheReclaim(watching), null);
    } finally {
      for (const admin of [stopped, watching]) fs.rmSync(admin, { recursive: true, force: true });
    }
  });
});

describe("settleLine", () => {
  const context = (settleSeconds: number, settled: [number, Settled | null][]) =>
    ({ settings: { settleSeconds, workerCounts: settled.map(([workers]) => workers) }, settled: new Map(settled) }) as Context;

  test("says each server's CPU over the settle's last seconds, by worker count", () => {
    const line = settleLine(
      context(45, [
        [1, { tailSeconds: 5, tailCpuShare: 0.031 }],
        [2, { tailSeconds: 5, tailCpuShare: 0.12 }],
      ]),
    );
    assert.match(line, /had 45 s before its first run/);
    assert.match(line, /by WEB_CONCURRENCY: 1: 3%, 2: 12%\./);
  });

  test("says a worker count that never ran, and that without settling the first runs measure the start", () => {
    assert.match(settleLine(context(45, [[1, null]])), /by WEB_CONCURRENCY: 1: not run\./);
    assert.match(settleLine(context(0, [[1, null]])), /^- Settling: none \(`--settle 0`\).*measure its start as well\.$/);
  });
});

describe("reportFile", () => {
  test("names a day's first report after the engine, the posts and the day, and a later one of that day -2, -3", () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "bench-results-"));
    try {
      const first = reportFile(dir, "sqlite", 1_000_000, "2026-12-07");
      assert.equal(first, path.join(dir, "sqlite-1000000-2026-12-07.md"));
      fs.writeFileSync(first, "the full run");
      const second = reportFile(dir, "sqlite", 1_000_000, "2026-12-07");
      assert.equal(second, path.join(dir, "sqlite-1000000-2026-12-07-2.md"));
      fs.writeFileSync(second, "a profiled run");
      assert.equal(reportFile(dir, "sqlite", 1_000_000, "2026-12-07"), path.join(dir, "sqlite-1000000-2026-12-07-3.md"));
      assert.equal(reportFile(dir, "postgres", 1_000_000, "2026-12-07"), path.join(dir, "postgres-1000000-2026-12-07.md"), "another engine's name is its own");
      assert.equal(fs.readFileSync(first, "utf8"), "the full run", "nothing written over");
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
