// `npm start`: brings the database up to date, fills a new empty database with demo data and a
// key (printed once), builds the app if the build is missing or older than the sources, and
// serves it on PORT.
import { spawn, spawnSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { createKey } from "../lib/auth/keys";
import { db } from "../lib/db";
import { env } from "../lib/env";
import { ensureMigrated } from "../lib/migrate";
import { seed } from "../lib/seed/seed";
import { serverArgs } from "../lib/server-command";

const root = path.resolve(import.meta.dirname, "..");
const next = path.join(root, "node_modules", ".bin", "next");
const distDir = path.join(root, process.env.NEXT_DIST_DIR || ".next");
const say = (line: string) => process.stderr.write(`${line}\n`);

function newestSource(): number {
  let newest = 0;
  const visit = (target: string) => {
    const stat = fs.statSync(target, { throwIfNoEntry: false });
    if (!stat) return;
    if (stat.isDirectory()) {
      if (path.basename(target) === "generated") return;
      for (const entry of fs.readdirSync(target)) visit(path.join(target, entry));
    } else {
      newest = Math.max(newest, stat.mtimeMs);
    }
  };
  for (const entry of ["app", "components", "lib", "next.config.mjs", "proxy.ts", "package-lock.json", "tsconfig.json"]) visit(path.join(root, entry));
  return newest;
}

function buildIfStale(): void {
  const buildId = path.join(distDir, "BUILD_ID");
  const built = fs.statSync(buildId, { throwIfNoEntry: false })?.mtimeMs ?? 0;
  if (built && built >= newestSource()) return;
  say(built ? "The sources changed since the last build; building again…" : "Building the app (first start only, about a minute)…");
  const result = spawnSync(next, ["build"], { cwd: root, stdio: ["ignore", process.stderr, process.stderr] });
  if (result.status !== 0) throw new Error("next build failed (see above)");
}

async function prepareDatabase(): Promise<string | undefined> {
  say("Bringing the database up to date…");
  await ensureMigrated(db);
  const [posts, keys] = await Promise.all([db.post.count(), db.apiKey.count()]);
  let key: string | undefined;
  if (posts === 0 && keys === 0) {
    say("A new database: adding demo data and an API key…");
    const summary = await seed({ posts: 500, seed: 1 });
    say(`Demo data: ${summary.posts} posts, ${summary.comments} comments, ${summary.changelogs} changelogs.`);
    key = (await createKey("Demo key")).key;
  }
  await db.$disconnect();
  return key;
}

async function waitUntilUp(url: string): Promise<void> {
  for (let i = 0; i < 600; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 100));
  }
}

async function main(): Promise<void> {
  const config = env();
  const key = await prepareDatabase();
  buildIfStale();
  const server = spawn(process.execPath, serverArgs(root), {
    cwd: root,
    stdio: "inherit",
    env: { ...process.env, NODE_ENV: "production" },
  });
  for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => server.kill(signal));
  server.on("exit", (code, signal) => process.exit(code ?? (signal ? 0 : 1)));

  const url = `http://localhost:${config.PORT}`;
  await waitUntilUp(url);
  const lines = [`Feedback service: ${url}  (dashboard)   ${url}/api/v1  (API)`];
  if (key) {
    lines.push(
      "",
      "Your API key, shown this once (sign in to the dashboard with it, or send it as a Bearer token):",
      `  ${key}`,
      "",
      `  curl -H "Authorization: Bearer ${key}" ${url}/api/v1/posts`,
      "",
      "More keys: npm run -s feedback -- keys create --name NAME",
    );
  }
  process.stdout.write(`\n${lines.join("\n")}\n\n`);
}

main().catch((error: unknown) => {
  say(`start failed: ${error instanceof Error ? error.message : String(error)}`);
  process.exit(1);
});
