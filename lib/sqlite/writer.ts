import "server-only";
import Database, { type Statement } from "better-sqlite3";

// Transactions on a connection of our own, past Prisma's client. Through the client each
// statement costs about 0.2 ms of this process's CPU (a comment PUT's transaction of seven,
// 1.5 ms: half of what the request costs); on better-sqlite3 itself, a few microseconds. The
// work of a transaction runs synchronously between BEGIN IMMEDIATE and COMMIT, so it holds the
// write lock for microseconds and never across a wait for anything else. Transactions of this
// process take the connection in turn; one that finds the lock held by another connection (the
// client's, another process's) fails at once with SQLITE_BUSY, and write() tries it again.

/** Kept statements, at most: a statement's text varies only with the length of its lists. */
const STATEMENT_CACHE = 256;

export class SqliteWriter {
  private connection: Database.Database | undefined;
  private readonly statements = new Map<string, Statement>();
  private turn: Promise<unknown> = Promise.resolve();

  constructor(
    private readonly file: string,
    private readonly busyTimeoutMs: number,
  ) {}

  /** Runs `work` in a transaction; its statements go through `run` (SQL with ? and bound values). */
  transaction<T>(work: (run: (sql: string, values: unknown[]) => unknown[] | number) => Promise<T>): Promise<T> {
    const result = this.turn.then(() => this.runTransaction(work));
    this.turn = result.catch(() => undefined);
    return result;
  }

  close(): void {
    this.connection?.close();
    this.connection = undefined;
    this.statements.clear();
  }

  private async runTransaction<T>(work: (run: (sql: string, values: unknown[]) => unknown[] | number) => Promise<T>): Promise<T> {
    this.connection ??= new Database(this.file, { fileMustExist: true, timeout: this.busyTimeoutMs });
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
    statement("BEGIN IMMEDIATE").run();
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
