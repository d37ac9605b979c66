import "server-only";
import Database, { type Statement } from "better-sqlite3";
import { isLockBusy } from "../db-errors";
import { decodeRows } from "./columns.mjs";
import type { Kinds } from "./read-pool";

/** Statements kept; past this the oldest goes (a few dozen texts read rows by key). */
const MAX_STATEMENTS = 100;

export interface KeyReaderOptions {
  file: string;
  /** How much of the database file to map into memory (SQLite's mmap_size), as the readers do; 0: none. */
  mmapBytes?: number;
}

/**
 * A read-only connection on the event loop, for reads of a few rows each found by a unique
 * key (lib/db.ts's `byKey`): an API key by its hash, a table's version, a row by its id. Such a
 * read takes SQLite a few microseconds; through a reader thread (read-pool.ts) it took a round
 * trip as well (the job posted, the thread woken, the rows posted back and received), and
 * every request made two of them (its key, and the version its totals are cached by) beside
 * its own reads.
 *
 * It never waits for a lock: in WAL mode a reader is not kept waiting by the writer, and where
 * SQLite says busy anyway (a checkpoint resetting the log at that moment) `read` gives
 * undefined, and the caller reads on a reader thread instead, which may wait off the event
 * loop. Each read is a statement of its own, so no read transaction is left open between two.
 */
export class KeyReader {
  private connection: Database.Database | undefined;
  private readonly statements = new Map<string, Statement>();

  constructor(private readonly options: KeyReaderOptions) {}

  /** The rows of `sql` (SQL with ? and bound values), decoded as `kinds` says; undefined where SQLite was busy. */
  read(sql: string, values: unknown[], kinds: Kinds): unknown[] | undefined {
    try {
      return decodeRows(this.prepare(sql).all(...values), kinds);
    } catch (error) {
      if (isLockBusy(error)) return undefined;
      throw error;
    }
  }

  close(): void {
    this.connection?.close();
    this.connection = undefined;
    this.statements.clear();
  }

  private prepare(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.open().prepare(sql);
      if (this.statements.size >= MAX_STATEMENTS) this.statements.delete(this.statements.keys().next().value as string);
      this.statements.set(sql, statement);
    }
    return statement;
  }

  private open(): Database.Database {
    if (!this.connection) {
      const connection = new Database(this.options.file, { fileMustExist: true, timeout: 0 });
      // This connection only ever reads; refuse anything else outright.
      connection.pragma("query_only = ON");
      connection.pragma(`mmap_size = ${this.options.mmapBytes ?? 0}`);
      this.connection = connection;
    }
    return this.connection;
  }
}
