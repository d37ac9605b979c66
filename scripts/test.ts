// `npm test`: builds the app once, then runs the unit tests, the API tests over real HTTP on
// SQLite and on PostgreSQL, and the browser tests in Chromium. In CI (CI=true) every suite must
// run; elsewhere a suite whose component is missing is skipped with a loud notice.
// `npm run test:unit|test:api|test:e2e` run one suite (scripts/test-args.ts has the arguments);
// the last two reuse the existing build.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { SERVER_CONDITION } from "../lib/server-command";
import { needsBuild, parseTestArgs, type Suite } from "./test-args";

const root = path.resolve(import.meta.dirname, "..");
const ci = ["true", "1"].includes((process.env.CI ?? "").toLowerCase());
const bin = (name: string) => path.join(root, "node_modules", ".bin", name);

interface Outcome {
  name: string;
  passed: number;
  failed: number;
  skipped?: string;
}
const outcomes: Outcome[] = [];

function findTests(dir: string, pattern: RegExp): string[] {
  const out: string[] = [];
  for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory() && entry.name !== "generated" && entry.name !== "node_modules") out.push(...findTests(rel, pattern));
    else if (pattern.test(entry.name)) out.push(rel);
  }
  return out.sort();
}

/** Runs a command, echoing its output, and returns the output for counting. */
function run(command: string, args: string[], env: Record<string, string> = {}): Promise<{ code: number; output: string }> {
  return new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, env: { ...process.env, ...env }, stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (d) => {
      output += d;
      process.stdout.write(d);
    });
    child.stderr.on("data", (d) => {
      output += d;
      process.stderr.write(d);
    });
    child.on("close", (code) => resolve({ code: code ?? 1, output }));
  });
}

const count = (output: string, pattern: RegExp) => [...output.matchAll(pattern)].reduce((sum, m) => sum + Number(m[1]), 0);

async function nodeTests(name: string, files: string[], env: Record<string, string> = {}): Promise<void> {
  console.log(`\n=== ${name} (${files.length} files) ===`);
  const { code, output } = await run(process.execPath, [SERVER_CONDITION, "--import", "tsx", "--test", "--test-reporter=tap", ...files], env);
  const passed = count(output, /^# pass (\d+)$/gm);
  const failed = count(output, /^# fail (\d+)$/gm) + count(output, /^# cancelled (\d+)$/gm);
  outcomes.push({ name, passed, failed: failed || (code === 0 ? 0 : 1) });
}

function skip(name: string, reason: string): void {
  if (ci) {
    outcomes.push({ name, passed: 0, failed: 1 });
    console.error(`\n!!! ${name} cannot run in CI: ${reason}`);
    return;
  }
  outcomes.push({ name, passed: 0, failed: 0, skipped: reason });
  console.error(`\n${"!".repeat(72)}\n!!! SKIPPED ${name}: ${reason}\n${"!".repeat(72)}`);
}

function chromium(): string | undefined {
  const candidate = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";
  return fs.existsSync(candidate) ? candidate : undefined;
}

/** Fails the run before any test: there is nothing to test against. */
function abort(message: string): never {
  console.error(message);
  console.log("\ntests: 0 passed, 1 failed");
  process.exit(1);
}

async function build(): Promise<void> {
  console.log("=== build (next build) ===");
  if ((await run(bin("next"), ["build"])).code !== 0) abort("The build failed; no test can run against it.");
}

function requireBuild(): void {
  const distDir = process.env.NEXT_DIST_DIR || ".next";
  if (!fs.existsSync(path.join(root, distDir, "BUILD_ID"))) {
    abort(`No production build in ${distDir}: the API and browser tests run against one. Build it with \`npm run build\` (or run \`npm test\`, which builds).`);
  }
}

async function apiTests(): Promise<void> {
  const apiFiles = findTests("tests/api", /\.test\.ts$/);
  await nodeTests("API tests on SQLite", apiFiles, { TEST_ENGINE: "sqlite" });
  if (process.env.TEST_POSTGRES_URL) {
    await nodeTests("API tests on PostgreSQL", apiFiles, { TEST_ENGINE: "postgres" });
  } else {
    skip("API tests on PostgreSQL", "TEST_POSTGRES_URL is not set (as root, `bash scripts/postgres-ci.sh` starts PostgreSQL and prints one)");
  }
}

async function browserTests(): Promise<void> {
  if (!fs.existsSync(path.join(root, "playwright.config.ts"))) {
    console.log("\n(no browser tests in this checkout)");
  } else if (chromium()) {
    console.log("\n=== browser tests (Playwright, Chromium) ===");
    const { code, output } = await run(bin("playwright"), ["test"], { CHROMIUM_PATH: chromium() as string });
    const passed = count(output, /^\s*(\d+) passed/gm);
    const failed = count(output, /^\s*(\d+) failed/gm) + count(output, /^\s*(\d+) flaky/gm);
    outcomes.push({ name: "browser tests", passed, failed: failed || (code === 0 ? 0 : 1) });
  } else {
    skip("browser tests", "Chromium is missing: `apt-get install chromium` (or set CHROMIUM_PATH)");
  }
}

const suites: Record<Suite, () => Promise<void>> = {
  unit: () =>
    nodeTests("unit tests", [...findTests("lib", /\.test\.tsx?$/), ...findTests("scripts", /\.test\.ts$/), ...findTests("bench", /\.test\.ts$/)]),
  api: apiTests,
  e2e: browserTests,
};

async function main(): Promise<void> {
  const args = parseTestArgs(process.argv.slice(2));
  if ("error" in args) {
    console.error(args.error);
    process.exit(2);
  }
  if (needsBuild(args.suites)) {
    if (args.build) await build();
    else requireBuild();
  }
  for (const suite of args.suites) await suites[suite]();

  console.log("\n=== summary ===");
  for (const o of outcomes) {
    console.log(`${o.skipped ? "SKIPPED" : o.failed ? "FAILED " : "ok     "} ${o.name}: ${o.skipped ?? `${o.passed} passed, ${o.failed} failed`}`);
  }
  const passed = outcomes.reduce((s, o) => s + o.passed, 0);
  const failed = outcomes.reduce((s, o) => s + o.failed, 0);
  console.log(`tests: ${passed} passed, ${failed} failed`);
  process.exit(failed ? 1 : 0);
}

void main();
