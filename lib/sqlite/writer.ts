import "server-only";
import Database, { type Statement } from "better-sqlite3";
import { isLockBusy } from "../db-errors";

// Transactions on a connection of our own, past Prisma's client. Through the client each
// statement costs about 0.2 ms of this process's CPU (a comment PUT's transaction of seven,
// 1.5 ms: half of what the request costs); on better-sqlite3 itself, a few microseconds. The
// work of a transaction runs synchronously between BEGIN IMMEDIATE and COMMIT, so it holds the
// write lock for microseconds and never across a wait for anything else. Transactions of this
// process take the connection in turn. One that finds the lock held by another connection (the
// client's, another process's) waits for it: in a server on a timer, keeping its turn (see
// begin()), elsewhere in SQLite's own busy handler.

/** Kept statements, at most: a statement's text varies only with the length of its lists. */
const STATEMENT_CACHE = 256;
/** The longest pause between two tries for the lock: another connection holds it briefly. */
const MAX_PAUSE_MS = 8;

export interface LockWait {
  /** How long a transaction waits for another connection's lock before SQLITE_BUSY. */
  timeoutMs: number;
  /**
   * Whether the wait may block the thread (SQLite's busy handler sleeps): only where no
   * requests are served, since it would stall every one of them.
   */
  blocking: boolean;
}

export class SqliteWriter {
  private connection: Database.Database | undefined;
  private readonly statements = new Map<string, Statement>();
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly lock: LockWait,
  ) {}

  /** Runs `work` in a transaction; its statements go through `run` (SQL with ? and bound values). */
  transaction<T>(work: (run: (sql: string, values: unknown[]) => unknown[] | number) => Promise<T>): Promise<T> {
    // The wait for the lock counts from now, so a transaction queued behind a waiting one gives
    // up when its own time is out, not a whole timeout after that one.
    const deadline = Date.now() + this.lock.timeoutMs;
    const result = this.turn.then(() => this.runTransaction(work, deadline));
    this.turn = result.catch(() => undefined);
    return result;
  }

  close(): void {
    this.connection?.close();
    this.connection = undefined;
    this.statements.clear();
  }

  /**
   * Takes the write lock. When another connection holds it, the transaction tries again on a
   * timer while keeping its turn, so this process's transactions still run in the order they
   * came instead of each one failing and sleeping on its own (the first to fail would then
   * run after all that came later). Gives up with SQLITE_BUSY at `deadline`.
   */
  private async begin(begin: Statement, deadline: number): Promise<void> {
    if (this.lock.blocking) return void begin.run();
    for (let pause = 1; ; pause = Math.min(pause * 2, MAX_PAUSE_MS)) {
      try {
        return void begin.run();
      } catch (error) {
        const left = deadline - Date.now();
        if (!isLockBusy(error) || left <= 0) throw error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(pause, left)));
      }
    }
  }

  private async runTransaction<T>(work: (run: (sql: string, values: unknown[]) => unknown[] | number) => Promise<T>, deadline: number): Promise<T> {
    this.connection ??= new Database(this.file, { fileMustExist: true, timeout: this.lock.blocking ? this.lock.timeoutMs : 0 });
    const connection = this.connection;
    const statement = (sql: string) => {
      let prepared = this.statements.get(sql);
      if (!prepared) {
        if (this.statements.size >= STATEMENT_CACHE) this.statements.clear();
        prepared = connection.prepare(sql);
        this.statements.set(sql, prepared);
      }
      return prepared;
    };
    const run = (sql: string, values: unknown[]) => {
      const prepared = statement(sql);
      return prepared.reader ? (prepared.all(...values) as unknown[]) : prepared.run(...values).changes;
    };
    await this.begin(statement("BEGIN IMMEDIATE"), deadline);
    try {
      const value = await work(run);
      statement("COMMIT").run();
      return value;
    } catch (error) {
      if (connection.inTransaction) statement("ROLLBACK").run();
      throw error;
    }
  }
}
