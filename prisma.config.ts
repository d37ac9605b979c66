import path from "node:path";
import { defineConfig } from "prisma/config";
import { createMigrationAdapter, resolveEngine } from "./lib/db-adapter";

// Prisma's CLI (migrate deploy/status/diff) runs through the same driver adapters as the app,
// with the JavaScript schema engine, so it works offline. PRISMA_ENGINE picks the schema
// when the command is not about DATABASE_URL's engine (migrate diff for both).
const engine = resolveEngine();

export default defineConfig({
  experimental: { adapter: true },
  engine: "js",
  schema: path.join("prisma", engine === "postgres" ? "postgres/schema.prisma" : "schema.prisma"),
  migrations: { path: path.join("prisma", engine === "postgres" ? "postgres/migrations" : "migrations") },
  adapter: async () => createMigrationAdapter(),
});
