// Derives the PostgreSQL schema from prisma/schema.prisma and generates both Prisma clients.
// Runs on `npm install` (postinstall), offline.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import path from "node:path";

const root = path.resolve(import.meta.dirname, "..");
const source = path.join(root, "prisma", "schema.prisma");
const target = path.join(root, "prisma", "postgres", "schema.prisma");

export function postgresSchema(sqlite: string): string {
  const replaced = sqlite
    .replace('provider = "sqlite"', 'provider = "postgresql"')
    .replace('output     = "../lib/generated/sqlite"', 'output     = "../../lib/generated/postgres"');
  if (!replaced.includes('"postgresql"') || !replaced.includes("generated/postgres")) {
    throw new Error("prisma/schema.prisma no longer has the generator/datasource lines this script rewrites");
  }
  return `// Generated from prisma/schema.prisma by scripts/generate.ts. Do not edit.\n${replaced}`;
}

fs.mkdirSync(path.dirname(target), { recursive: true });
fs.writeFileSync(target, postgresSchema(fs.readFileSync(source, "utf8")));

const prisma = path.join(root, "node_modules", ".bin", "prisma");
for (const engine of ["sqlite", "postgres"]) {
  execFileSync(prisma, ["generate"], {
    cwd: root,
    stdio: ["ignore", "ignore", "inherit"],
    env: {
      ...process.env,
      PRISMA_ENGINE: engine,
      PRISMA_HIDE_UPDATE_MESSAGE: "1",
      DATABASE_URL: process.env.DATABASE_URL || (engine === "sqlite" ? "file:./data/feedback.db" : "postgresql://localhost/feedback"),
    },
  });
}
console.error("Generated the Prisma clients for SQLite and PostgreSQL.");
