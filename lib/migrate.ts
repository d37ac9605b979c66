import "server-only";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { Db } from "./db";
import { dialect } from "./dialect";
import { env } from "./env";

// `feedback migrate`: applies the engine's migrations with Prisma's own CLI (offline, through
// the driver adapter configured in prisma.config.ts). Safe to repeat.

const root = path.resolve(import.meta.dirname, "..");

export function migrate(): void {
  const url = env().DATABASE_URL;
  const prisma = path.join(root, "node_modules", ".bin", "prisma");
  let output: string;
  try {
    output = execFileSync(prisma, ["migrate", "deploy"], {
      cwd: root,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, DATABASE_URL: url, PRISMA_ENGINE: dialect.engine, PRISMA_HIDE_UPDATE_MESSAGE: "1" },
    });
  } catch (error) {
    const e = error as { stdout?: string; stderr?: string };
    process.stderr.write(`${e.stdout ?? ""}${e.stderr ?? ""}`);
    throw new Error("migrate failed (Prisma's output is above)");
  }
  // Prisma's CLI is chatty; stdout is kept for results, so say the outcome in one line.
  const applied = output.match(/^\s+└─ (\S+)\/$/gm)?.map((line) => line.trim().slice(3, -1)) ?? [];
  process.stderr.write(applied.length ? `Applied migrations: ${applied.join(", ")}\n` : "The database schema is up to date.\n");
  dialect.afterMigrate(url);
}

function migrationFolders(): string[] {
  const dir = path.join(root, ...dialect.migrations);
  return fs
    .readdirSync(dir, { withFileTypes: true })
    .filter((entry) => entry.isDirectory())
    .map((entry) => entry.name);
}

/**
 * Migrates only when the database lacks a migration, so commands that need the schema (import,
 * keys, seed, start) work on a new database without paying for Prisma's CLI every time.
 */
export async function ensureMigrated(database: Db): Promise<void> {
  let applied = new Set<string>();
  try {
    const rows = await database.$queryRawUnsafe<{ migration_name: string }[]>(
      `SELECT "migration_name" FROM "_prisma_migrations" WHERE "finished_at" IS NOT NULL`,
    );
    applied = new Set(rows.map((r) => r.migration_name));
  } catch {
    // No migrations table: a new database.
  }
  if (migrationFolders().some((name) => !applied.has(name))) migrate();
}
