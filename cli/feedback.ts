// The command line: `npm run -s feedback -- <command>`. Results go to stdout, logs and progress
// to stderr; exit 0 on success, 1 with a one-line reason on failure.
import fs from "node:fs";
import path from "node:path";
import { finished } from "node:stream/promises";
import { parseArgs } from "node:util";
import { exportEvents } from "../lib/audit/export";
import { pruneEvents } from "../lib/audit/prune";
import { type AuditFilter, readEvents } from "../lib/audit/queries";
import { listAuditEventsQuery } from "../lib/audit/schemas";
import { createKey, listKeys, parseScopes, revokeKey } from "../lib/auth/keys";
import { closeConnections, db } from "../lib/db";
import { waitedTooLongForLock } from "../lib/db-errors";
import { engineOf, env, sqlitePath } from "../lib/env";
import { backupSqlite } from "../lib/export/backup";
import { writeBeside } from "../lib/export/file";
import { runExport } from "../lib/export/run";
import { ImportError, runImport } from "../lib/import/run";
import { ensureMigrated, migrate } from "../lib/migrate";
import { seed } from "../lib/seed/seed";
import { WEBHOOK_USAGE, webhooksCommand } from "../lib/webhooks/commands";
import { deliverCommand } from "./webhooks-deliver";

const USAGE = `Usage: npm run -s feedback -- <command>

Commands:
  migrate                                   bring the database schema up to date
  keys create --name NAME [--scopes read,write,admin]
                                            make an API key and print it (shown once);
                                            read,write unless told, admin never implied
  keys list                                 list keys (never the secret)
  keys revoke ID                            revoke a key
  import FILE                               import a dataset (format version 1), all or nothing
  export FILE [--force]                     write the whole dataset in the import format (FILE - is stdout)
  backup FILE [--force]                     copy a live SQLite database, consistently (PostgreSQL: pg_dump)
  seed [--posts N] [--seed S]               make deterministic demo data
  audit list [FILTERS] [--limit N] [--json] the audit trail, newest first (a table, or one JSON array)
  audit export FILE [FILTERS] [--force]     write the audit trail as NDJSON, oldest first (FILE - is stdout)
  audit prune [--older-than-days N]         delete events older than N days (default AUDIT_RETENTION_DAYS)
    FILTERS: --since ISO --until ISO --action a,b --resource-type T --resource-id ID --actor-key-id ID
${WEBHOOK_USAGE}
  webhooks deliver [--once]                 send due webhook deliveries: one pass, or until interrupted

DATABASE_URL picks the database: file:... (SQLite, the default data/feedback.db) or postgres://...`;

class UsageError extends Error {}

const out = (line: string) => process.stdout.write(`${line}\n`);
const info = (line: string) => process.stderr.write(`${line}\n`);

function wholeNumber(value: string | undefined, name: string, fallback: number, min: number, max: number): number {
  if (value === undefined) return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new UsageError(`--${name} must be a whole number from ${min} to ${max}`);
  }
  return Number(value);
}

function table(rows: string[][]): string {
  const widths = rows[0]?.map((_, i) => Math.max(...rows.map((r) => (r[i] ?? "").length))) ?? [];
  return rows.map((r) => r.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join("  ").trimEnd()).join("\n");
}

async function keys(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === "create") {
    const { values } = parseArgs({ args: rest, options: { name: { type: "string" }, scopes: { type: "string" } } });
    const name = values.name?.trim();
    if (!name) throw new UsageError("keys create needs --name NAME");
    let scopes: ReturnType<typeof parseScopes> | undefined;
    try {
      scopes = values.scopes === undefined ? undefined : parseScopes(values.scopes);
    } catch (error) {
      throw new UsageError(`--scopes: ${(error as Error).message}`);
    }
    const created = await createKey(name, scopes);
    info(`Created key ${created.id} "${created.name}" with scopes ${created.scopes.join(",")}. It is shown once; store it now.`);
    out(created.key);
    return;
  }
  if (sub === "list") {
    parseArgs({ args: rest, options: {} });
    const rows = await listKeys();
    const time = (d: Date | null) => (d ? d.toISOString() : "-");
    out(
      table([
        ["ID", "NAME", "PREFIX", "SCOPES", "CREATED", "LAST USED", "REVOKED"],
        ...rows.map((k) => [k.id, k.name, `${k.prefix}…`, k.scopes, time(k.createdAt), time(k.lastUsedAt), time(k.revokedAt)]),
      ]),
    );
    return;
  }
  if (sub === "revoke") {
    const { positionals } = parseArgs({ args: rest, options: {}, allowPositionals: true });
    if (positionals.length !== 1) throw new UsageError("keys revoke needs exactly one key ID (see keys list)");
    const id = positionals[0] as string;
    const outcome = await revokeKey(id);
    if (outcome === "unknown") throw new Error(`no key has the ID ${id}`);
    info(outcome === "revoked" ? `Revoked key ${id}.` : `Key ${id} was already revoked; nothing changed.`);
    return;
  }
  throw new UsageError("keys takes create, list or revoke");
}

async function importCommand(args: string[]): Promise<void> {
  const { positionals } = parseArgs({ args, options: {}, allowPositionals: true });
  if (positionals.length !== 1) throw new UsageError("import needs exactly one FILE");
  const file = positionals[0] as string;
  let raw: unknown;
  try {
    raw = JSON.parse(fs.readFileSync(file, "utf8"));
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "no such file" : (error as Error).message;
    throw new Error(`cannot read ${file}: ${reason}`);
  }
  const started = Date.now();
  try {
    const summary = await runImport(raw, {
      progress: (done, total) => info(`import: ${done}/${total} records`),
      source: path.basename(file),
      waiting: () => info("import: another import is running; this one starts when it ends"),
      note: (message) => info(`import: ${message}`),
    });
    const parts = Object.entries(summary).map(([k, v]) => `${v} ${k}`);
    out(`Imported ${parts.join(", ")} from ${file} in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
  } catch (error) {
    if (error instanceof ImportError) {
      for (const p of error.problems.slice(0, 50)) info(`  ${p.path}: ${p.message}`);
      if (error.problems.length > 50) info(`  … and ${error.problems.length - 50} more`);
      throw new Error(`import refused, nothing was written: ${error.message}`);
    }
    // The import is one transaction: a statement that waited too long failed it whole.
    if (waitedTooLongForLock(error)) {
      throw new Error(
        `import failed, nothing was written: another writer (another import, or the server) held a lock it needed for longer than DATABASE_LOCK_TIMEOUT_MS (${env().DATABASE_LOCK_TIMEOUT_MS} ms); run it again once that writer is done, or with a longer DATABASE_LOCK_TIMEOUT_MS`,
      );
    }
    throw error;
  }
}

function fileArgument(args: string[], command: string): { file: string; force: boolean } {
  const { values, positionals } = parseArgs({ args, options: { force: { type: "boolean" } }, allowPositionals: true });
  if (positionals.length !== 1) throw new UsageError(`${command} needs exactly one FILE`);
  return { file: positionals[0] as string, force: values.force ?? false };
}

const counted = (summary: object) => Object.entries(summary).map(([k, v]) => `${v} ${k}`).join(", ");
const seconds = (started: number) => `${((Date.now() - started) / 1000).toFixed(1)} s`;

async function exportCommand(args: string[]): Promise<void> {
  const { file, force } = fileArgument(args, "export");
  const started = Date.now();
  const progress = (kind: string, done: number, total: number) => info(`export: ${kind} ${done}/${total}`);
  if (file === "-") {
    // stdout carries the data, so the summary goes with the logs.
    const summary = await runExport(process.stdout, progress);
    info(`Exported ${counted(summary)} in ${seconds(started)}.`);
    return;
  }
  const summary = await writeBeside(file, force, async (temp) => {
    const stream = fs.createWriteStream(temp, { flags: "wx" });
    try {
      const written = await runExport(stream, progress);
      stream.end();
      await finished(stream);
      return written;
    } finally {
      stream.destroy();
    }
  });
  out(`Exported ${counted(summary)} to ${file} in ${seconds(started)}.`);
}

async function backupCommand(args: string[]): Promise<void> {
  const { file, force } = fileArgument(args, "backup");
  const url = env().DATABASE_URL;
  if (engineOf(url) !== "sqlite") {
    throw new Error("backup copies a SQLite database; on PostgreSQL use pg_dump (see the README, Operations)");
  }
  const source = sqlitePath(url);
  if (!fs.existsSync(source)) throw new Error(`no SQLite database at ${source}`);
  const started = Date.now();
  let shown = -1;
  const progress = (done: number, total: number) => {
    const tenth = Math.floor((done / total) * 10);
    if (tenth > shown) info(`backup: ${done}/${total} pages`);
    shown = tenth;
  };
  const { pages } = await writeBeside(file, force, (temp) => backupSqlite(source, temp, progress));
  const megabytes = (fs.statSync(file).size / 1_048_576).toFixed(1);
  out(`Backed up ${source} to ${file} (${pages} pages, ${megabytes} MB) in ${seconds(started)}.`);
}

async function seedCommand(args: string[]): Promise<void> {
  const { values } = parseArgs({ args, options: { posts: { type: "string" }, seed: { type: "string" } } });
  const posts = wholeNumber(values.posts, "posts", 200, 1, 10_000_000);
  const seedValue = wholeNumber(values.seed, "seed", 1, 0, 4_294_967_295);
  const started = Date.now();
  const summary = await seed({ posts, seed: seedValue, progress: (m) => info(`seed: ${m}`) });
  const parts = Object.entries(summary).map(([k, v]) => `${v} ${k}`);
  out(`Seeded ${parts.join(", ")} (seed ${seedValue}) in ${((Date.now() - started) / 1000).toFixed(1)} s.`);
}

const auditFilterOptions = {
  since: { type: "string" },
  until: { type: "string" },
  action: { type: "string", multiple: true },
  "resource-type": { type: "string" },
  "resource-id": { type: "string" },
  "actor-key-id": { type: "string" },
} as const;

/** The audit filters of the command line, checked by the API's own query schema. */
function auditFilter(values: {
  since?: string;
  until?: string;
  action?: string[];
  "resource-type"?: string;
  "resource-id"?: string;
  "actor-key-id"?: string;
}): AuditFilter {
  const parsed = listAuditEventsQuery.safeParse({
    since: values.since,
    until: values.until,
    action: values.action,
    resourceType: values["resource-type"],
    resourceId: values["resource-id"],
    actorKeyId: values["actor-key-id"],
  });
  if (!parsed.success) {
    const flag = (field: string) => `--${field.replace(/[A-Z]/g, (c) => `-${c.toLowerCase()}`)}`;
    throw new UsageError(parsed.error.issues.map((i) => `${flag(String(i.path[0]))}: ${i.message}`).join("; "));
  }
  const { action, since, until, resourceType, resourceId, actorKeyId } = parsed.data;
  return { actions: action, since, until, resourceType, resourceId, actorKeyId };
}

async function audit(args: string[]): Promise<void> {
  const [sub, ...rest] = args;
  if (sub === "list") {
    const { values } = parseArgs({
      args: rest,
      options: { ...auditFilterOptions, limit: { type: "string" }, json: { type: "boolean" } },
    });
    const events = await readEvents(auditFilter(values), { order: "newest", limit: wholeNumber(values.limit, "limit", 50, 1, 100_000) });
    if (values.json) {
      out(JSON.stringify(events));
      return;
    }
    const brief = (value: unknown) => {
      const text = JSON.stringify(value);
      return text.length > 60 ? `${text.slice(0, 59)}…` : text;
    };
    out(
      table([
        ["TIME", "ACTION", "ACTOR", "VIA", "RESOURCE", "CHANGES"],
        ...events.map((e) => [
          e.createdAt,
          e.action,
          e.actor.keyId ? `${e.actor.name} (${e.actor.keyId})` : e.actor.name,
          e.actor.via,
          e.resource.id ? `${e.resource.type} ${e.resource.id}` : e.resource.type,
          brief(e.changes),
        ]),
      ]),
    );
    return;
  }
  if (sub === "export") {
    const { values, positionals } = parseArgs({
      args: rest,
      options: { ...auditFilterOptions, force: { type: "boolean" } },
      allowPositionals: true,
    });
    if (positionals.length !== 1) throw new UsageError("audit export needs exactly one FILE");
    const file = positionals[0] as string;
    const filter = auditFilter(values);
    const progress = (done: number) => info(`audit export: ${done} events`);
    if (file === "-") {
      info(`Exported ${await exportEvents(process.stdout, filter, progress)} audit events.`);
      return;
    }
    const count = await writeBeside(file, values.force ?? false, async (temp) => {
      const stream = fs.createWriteStream(temp, { flags: "wx" });
      try {
        const written = await exportEvents(stream, filter, progress);
        stream.end();
        await finished(stream);
        return written;
      } finally {
        stream.destroy();
      }
    });
    out(`Exported ${count} audit events to ${file}.`);
    return;
  }
  if (sub === "prune") {
    const { values } = parseArgs({ args: rest, options: { "older-than-days": { type: "string" } } });
    const days =
      values["older-than-days"] !== undefined
        ? wholeNumber(values["older-than-days"], "older-than-days", 0, 1, 36_500)
        : env().AUDIT_RETENTION_DAYS;
    if (days === undefined) throw new UsageError("audit prune needs --older-than-days N, or AUDIT_RETENTION_DAYS set");
    const removed = await pruneEvents(days);
    out(`Removed ${removed} audit events older than ${days} day${days === 1 ? "" : "s"}.`);
    return;
  }
  throw new UsageError("audit takes list, export or prune");
}

async function main(argv: string[]): Promise<void> {
  const [command, ...args] = argv;
  switch (command) {
    case "migrate":
      parseArgs({ args, options: {} });
      migrate();
      return;
    case "keys":
      await ensureMigrated(db);
      return keys(args);
    case "import":
      await ensureMigrated(db);
      return importCommand(args);
    case "seed":
      await ensureMigrated(db);
      return seedCommand(args);
    case "export":
      await ensureMigrated(db);
      return exportCommand(args);
    case "backup":
      return backupCommand(args);
    case "audit":
      await ensureMigrated(db);
      return audit(args);
    case "webhooks":
      await ensureMigrated(db);
      if (args[0] === "deliver") return deliverCommand(args.slice(1), out, info);
      return webhooksCommand(args, { out, info, table, usage: (message) => new UsageError(message) });
    case "help":
    case "--help":
    case "-h":
      out(USAGE);
      return;
    default:
      throw new UsageError(command ? `unknown command "${command}"` : "no command given");
  }
}

// The readers go too: an idle SQLite reader thread can still hold the process open.
const closeAll = () => Promise.all([db.$disconnect(), closeConnections()]);

/**
 * A failure's reason, on one line. Prisma's messages name the call that failed on their first
 * line ("Invalid `prisma.changelog.upsert()` invocation:") and give the reason after it.
 */
function reasonOf(message: string): string {
  const [first = "failed, with no message", ...rest] = message
    .split("\n")
    .map((line) => line.trim())
    .filter(Boolean);
  return /^Invalid `.*` invocation/.test(first) && rest.length ? rest.join(" ") : first;
}

main(process.argv.slice(2))
  .then(closeAll)
  .catch(async (error: unknown) => {
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`feedback: ${reasonOf(message)}\n`);
    if (error instanceof UsageError || (error as { code?: string }).code?.startsWith("ERR_PARSE_ARGS")) {
      process.stderr.write(`Run "npm run -s feedback -- help" for usage.\n`);
    }
    await closeAll().catch(() => {});
    process.exitCode = 1;
  });
