import "server-only";
import Database from "better-sqlite3";
import { env } from "../env";

// `feedback backup`: a consistent copy of a live SQLite database through SQLite's online backup
// API, on a connection of its own, while the server keeps reading and writing.

const PAGES_PER_STEP = 1000;

export interface BackupResult {
  pages: number;
}

/** Copies the SQLite database at `source` to the new file `target`. */
export async function backupSqlite(
  source: string,
  target: string,
  progress: (done: number, total: number) => void = () => {},
): Promise<BackupResult> {
  const connection = new Database(source, { fileMustExist: true, timeout: env().DATABASE_LOCK_TIMEOUT_MS });
  try {
    connection.pragma("query_only = ON");
    // One read transaction for the whole copy pins one snapshot. Without it, SQLite restarts
    // the copy whenever another connection writes between two steps, and a busy server's
    // backup would never finish; in WAL mode the open read holds no writer back.
    connection.exec("BEGIN");
    connection.prepare("SELECT count(*) FROM sqlite_master").get();
    const { totalPages } = await connection.backup(target, {
      progress: ({ totalPages, remainingPages }) => {
        progress(totalPages - remainingPages, totalPages);
        return PAGES_PER_STEP;
      },
    });
    connection.exec("COMMIT");
    progress(totalPages, totalPages);
    return { pages: totalPages };
  } finally {
    connection.close();
  }
}
