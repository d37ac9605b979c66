import { execFileSync } from "node:child_process";
import path from "node:path";
import Database from "better-sqlite3";
import { engineOf, env, sqlitePath } from "./env";

// `feedback migrate`: applies the engine's migrations with Prisma's own CLI (offline, through
// the driver adapter configured in prisma.config.ts). Safe to repeat.

const root = path.resolve(import.meta.dirname, "..");

export function migrate(): void {
  const url = env().DATABASE_URL;
  const engine = engineOf(url);
  const prisma = path.join(root, "node_modules", ".bin", "prisma");
  execFileSync(prisma, ["migrate", "deploy"], {
    cwd: root,
    // Prisma's CLI prints progress on stdout; ours is kept for results.
    stdio: ["ignore", process.stderr, process.stderr],
    env: { ...process.env, DATABASE_URL: url, PRISMA_ENGINE: engine, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
  });
  if (engine === "sqlite") {
    // WAL is a property of the database file: set it once here, it stays.
    const file = new Database(sqlitePath(url));
    file.pragma("journal_mode = WAL");
    file.close();
  }
}
