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
//
// Group commit: the transactions asked for in one turn of the event loop commit together, each
// in a savepoint of one BEGIN ... COMMIT, so a busy server writes the log's pages a commit
// touches (the tables' last pages, the indexes' rightmost leaves) once per group instead of once
// per transaction. Each still succeeds or fails alone: a failure rolls back to its savepoint,
// and none is answered before the group's COMMIT. A group waits for nothing but the end of the
// turn it was asked in (setImmediate), so one transaction alone is not delayed.

/** Kept statements, at most: a statement's text varies only with the length of its lists. */
const STATEMENT_CACHE = 256;
/**
 * Pauses between two tries for another connection's lock. The webhook dispatcher, the usual
 * holder, keeps it 1-3 ms, and every transaction of this process waits while it does: so the
 * first tries come a millisecond apart (a try costs microseconds), and only a hold longer than
 * SHORT_TRIES of them (a command, a migration) is waited for at up to MAX_PAUSE_MS a try.
 */
const SHORT_TRIES = 16;
const MAX_PAUSE_MS = 8;
const pauseBefore = (retry: number) => (retry <= SHORT_TRIES ? 1 : Math.min(2 ** (retry - SHORT_TRIES), MAX_PAUSE_MS));
/** Transactions one group commits, at most: each waits for the group's COMMIT. */
export const MAX_GROUP = 16;

export interface LockWait {
  /** How long a transaction waits for another connection's lock before SQLITE_BUSY. */
  timeoutMs: number;
  /**
   * Whether the wait may block the thread (SQLite's busy handler sleeps): only where no
   * requests are served, since it would stall every one of them.
   */
  blocking: boolean;
}

type Run = (sql: string, values: unknown[]) => unknown[] | number;

interface Job {
  work: (run: Run) => Promise<unknown>;
  /** When the wait for the lock gives up, counted from when the transaction was asked for. */
  deadline: number;
  resolve: (value: unknown) => void;
  reject: (error: unknown) => void;
}

export class SqliteWriter {
  private connection: Database.Database | undefined;
  private readonly statements = new Map<string, Statement>();
  private queue: Job[] = [];
  /** A group is being run, or one is due at the end of this turn. */
  private busy = false;

  constructor(
    private readonly file: string,
    private readonly lock: LockWait,
  ) {}

  /** Runs `work` in a transaction; its statements go through `run` (SQL with ? and bound values). */
  transaction<T>(work: (run: Run) => Promise<T>): Promise<T> {
    return new Promise<T>((resolve, reject) => {
      this.queue.push({ work, deadline: Date.now() + this.lock.timeoutMs, resolve: resolve as (value: unknown) => void, reject });
      this.schedule();
    });
  }

  close(): void {
    this.connection?.close();
    this.connection = undefined;
    this.statements.clear();
  }

  private schedule(): void {
    if (this.busy || !this.queue.length) return;
    this.busy = true;
    setImmediate(() => void this.runGroup(this.queue.splice(0, MAX_GROUP)));
  }

  private prepare(sql: string): Statement {
    let prepared = this.statements.get(sql);
    if (!prepared) {
      if (this.statements.size >= STATEMENT_CACHE) this.statements.clear();
      prepared = this.open().prepare(sql);
      this.statements.set(sql, prepared);
    }
    return prepared;
  }

  private open(): Database.Database {
    if (!this.connection) {
      this.connection = new Database(this.file, { fileMustExist: true, timeout: this.lock.blocking ? this.lock.timeoutMs : 0 });
      // A savepoint's undo journal: in memory, not a temporary file per group.
      this.connection.pragma("temp_store = MEMORY");
    }
    return this.connection;
  }

  /**
   * Takes the write lock for `jobs`. When another connection holds it, the group tries again on
   * a timer while keeping its turn, so this process's transactions still run in the order they
   * came instead of each one failing and sleeping on its own. A transaction whose deadline
   * passes meanwhile fails with SQLITE_BUSY; returns the ones still waiting, with the lock.
   */
  private async begin(jobs: Job[]): Promise<Job[]> {
    const begin = this.prepare("BEGIN IMMEDIATE");
    if (this.lock.blocking) {
      begin.run();
      return jobs;
    }
    for (let retry = 1; ; retry++) {
      try {
        begin.run();
        return jobs;
      } catch (error) {
        if (!isLockBusy(error)) throw error;
        const now = Date.now();
        for (const job of jobs) if (job.deadline <= now) job.reject(error);
        jobs = jobs.filter((job) => job.deadline > now);
        if (!jobs.length) return jobs;
        const left = Math.min(...jobs.map((job) => job.deadline)) - now;
        await new Promise((resolve) => setTimeout(resolve, Math.min(pauseBefore(retry), left)));
      }
    }
  }

  private async runGroup(asked: Job[]): Promise<void> {
    let jobs = asked;
    try {
      jobs = await this.begin(asked);
      if (!jobs.length) return;
      const outcomes = await this.runInTransaction(jobs);
      this.prepare("COMMIT").run();
      for (const [i, job] of jobs.entries()) {
        const outcome = outcomes[i];
        if (outcome && "value" in outcome) job.resolve(outcome.value);
        else job.reject(outcome?.error);
      }
    } catch (error) {
      if (this.connection?.inTransaction) this.prepare("ROLLBACK").run();
      for (const job of jobs) job.reject(error);
    } finally {
      this.busy = false;
      this.schedule();
    }
  }

  /**
   * Runs each job's work in the open transaction; alone, as it is, else each in a savepoint
   * that a failure rolls back to. Throws when a failure ended the transaction itself (SQLite
   * rolls back the whole of it on a few errors, such as a full disk): every job then fails.
   */
  private async runInTransaction(jobs: Job[]): Promise<({ value: unknown } | { error: unknown })[]> {
    const run: Run = (sql, values) => {
      const prepared = this.prepare(sql);
      return prepared.reader ? (prepared.all(...values) as unknown[]) : prepared.run(...values).changes;
    };
    if (jobs.length === 1) return [{ value: await (jobs[0] as Job).work(run) }];
    const outcomes: ({ value: unknown } | { error: unknown })[] = [];
    for (const job of jobs) {
      this.prepare("SAVEPOINT job").run();
      try {
        outcomes.push({ value: await job.work(run) });
        this.prepare("RELEASE job").run();
      } catch (error) {
        if (!this.connection?.inTransaction) throw error;
        this.prepare("ROLLBACK TO job").run();
        this.prepare("RELEASE job").run();
        outcomes.push({ error });
      }
    }
    return outcomes;
  }
}
