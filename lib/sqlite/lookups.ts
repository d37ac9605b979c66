import "server-only";
import Database, { type Statement } from "better-sqlite3";
import { isLockBusy } from "../db-errors";

// Reads of a row by its key (read()'s `lookup` option: the caller's API key, a table's data
// version, one post, comment or changelog by id) on a read-only connection of the main thread.
// Each is a walk down one index, a few pages: microseconds, where handing it to a reader thread
// (lib/sqlite/read-pool.ts) cost a message each way, a thread woken on a busy machine, and a
// place in the readers' queue behind whatever long searches the other requests sent. Every API
// request authenticates first, so each waited in that queue twice.

/** Kept statements, at most: lookups are a few dozen texts. */
const STATEMENT_CACHE = 100;

export class SqliteLookups {
  private connection: Database.Database | undefined;
  private readonly statements = new Map<string, Statement>();

  constructor(
    private readonly file: string,
    private readonly mmapBytes: number,
  ) {}

  /**
   * The rows, or undefined when SQLite answers busy (a reader can meet a lock only while
   * another connection recovers or resets the write-ahead log): the caller then reads on a
   * reader thread, which may wait for it, where this thread must not.
   */
  run(sql: string, values: unknown[]): unknown[] | undefined {
    try {
      return this.statementFor(sql).all(...values);
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

  private open(): Database.Database {
    if (!this.connection) {
      // timeout 0: a busy database is answered at once (above), never slept on.
      const connection = new Database(this.file, { fileMustExist: true, timeout: 0 });
      connection.pragma("query_only = ON");
      connection.pragma(`mmap_size = ${this.mmapBytes}`);
      this.connection = connection;
    }
    return this.connection;
  }

  private statementFor(sql: string): Statement {
    let statement = this.statements.get(sql);
    if (!statement) {
      statement = this.open().prepare(sql);
      if (this.statements.size >= STATEMENT_CACHE) this.statements.delete(this.statements.keys().next().value as string);
      this.statements.set(sql, statement);
    }
    return statement;
  }
}
