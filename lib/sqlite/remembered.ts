import "server-only";
import Database, { type Statement } from "better-sqlite3";
import { LRUCache } from "lru-cache";

// The reads that every request makes with the same values (the caller's API key), remembered
// while the database is unchanged. Each was a round trip to a read thread: a message each way,
// a wake-up of the thread, the statement, its rows copied back. Whether the database is
// unchanged is SQLite's own count of the commits other connections have made since this one
// last looked (PRAGMA data_version), on a read-only connection of the event loop's own that runs
// nothing else: it moves on every commit by any connection, this process's writer and every
// other process's included, and reading it takes about a microsecond and never waits for a lock
// (WAL). So a remembered read is one made in the same state of the database, and a key revoked
// by another process is refused on the next request.
//
// Not for every read a request repeats. Remembering the table's version too, so that a search
// the readers' aids answer reached no read thread at all, took more CPU off each answer, but
// it let bursts of such requests run to their end in one turn of the event loop: with two
// processes, under terms matching nothing, the health probe's p99 went to 166-246 ms against
// 60-101, and the seconds in which the loop was held 30 ms or more nearly doubled
// (docs/performance-log.md, 2026-12-06, midday).

interface Entry {
  changes: number;
  rows: unknown[];
}

export class RememberedReads {
  private connection: Database.Database | null | undefined;
  private dataVersion: Statement | undefined;
  private readonly entries: LRUCache<string, Entry>;

  constructor(
    private readonly file: string,
    /** Entries kept, at most: the least recently used goes first. */
    max = 256,
  ) {
    this.entries = new LRUCache({ max });
  }

  /**
   * The rows of `sql` with `values`: remembered ones while the database has not changed since
   * they were read, else `run()`'s. Each caller gets rows of its own to change.
   */
  async read<T>(sql: string, values: unknown[], run: () => Promise<T[]>): Promise<T[]> {
    // Read before the rows are: a commit after this moves the count, so rows read after such a
    // commit are kept under a count that no later read can match, never the other way round.
    const changes = this.changes();
    if (changes === undefined) return run();
    const key = `${sql}\u0000${JSON.stringify(values)}`;
    const hit = this.entries.get(key);
    if (hit && hit.changes === changes) return copies(hit.rows as T[]);
    const rows = await run();
    this.entries.set(key, { changes, rows: copies(rows) });
    return rows;
  }

  close(): void {
    this.connection?.close();
    this.connection = null;
    this.entries.clear();
  }

  /** The connection's count of others' commits; undefined when it cannot be read (no file yet, a busy recovery). */
  private changes(): number | undefined {
    try {
      if (this.connection === undefined) {
        this.connection = new Database(this.file, { readonly: true, fileMustExist: true, timeout: 0 });
        this.dataVersion = this.connection.prepare("PRAGMA data_version").pluck();
      }
      return this.connection ? (this.dataVersion?.get() as number) : undefined;
    } catch {
      // Not remembered this time; the next read tries again (to open a file that did not exist yet).
      return undefined;
    }
  }
}

const copies = <T>(rows: T[]): T[] => rows.map((row) => ({ ...row }));
