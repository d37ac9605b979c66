// One SQLite reader, in a worker thread: it opens the database read-only, says { ready }, then
// answers { sql, values } with { rows } or { error }, keeping its prepared statements. Plain
// JavaScript, loaded by path at run time, so it runs the same under Next.js and the CLI.
import { parentPort, workerData } from "node:worker_threads";
import Database from "better-sqlite3";

const MAX_STATEMENTS = 500;
const connection = new Database(workerData.file, { fileMustExist: true, timeout: workerData.busyTimeoutMs });
// This connection only ever reads; refuse anything else outright.
connection.pragma("query_only = ON");
// Pages of the mapped part of the file are read in place from the kernel's page cache, not
// copied into SQLite's own cache by a read() each: reading a thousand scattered rows took half
// the time at a million posts (README, SQLITE_MMAP_MB).
connection.pragma(`mmap_size = ${Number(workerData.mmapBytes) || 0}`);
const statements = new Map();
// Reads may come now: their time budgets start (read-pool.ts).
parentPort.postMessage({ ready: true });

function statementFor(sql) {
  let statement = statements.get(sql);
  if (!statement) {
    statement = connection.prepare(sql);
    if (statements.size >= MAX_STATEMENTS) statements.delete(statements.keys().next().value);
    statements.set(sql, statement);
  }
  return statement;
}

parentPort.on("message", ({ sql, values }) => {
  try {
    parentPort.postMessage({ rows: statementFor(sql).all(...values) });
  } catch (error) {
    parentPort.postMessage({ error: { message: String(error?.message ?? error), code: error?.code } });
  }
});
