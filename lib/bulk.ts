import "server-only";
import type { Db, Tx } from "./db";
import { dialect, type SearchTable } from "./dialect";
import type { ColumnKind } from "./rows";

// Multi-row INSERTs with the values as parameters, for the seed and the import. Writing many
// rows one Prisma call at a time spends most of the time in the client (an import of 62,000
// records took 85 s on SQLite and 129 s on PostgreSQL that way); hand-built statements let the
// database do the work. Values are bound as the dialect encodes them (on SQLite, as its adapter
// writes them), so rows written here read back exactly like rows written through Prisma.

/** A column of a bulk write and how its values travel to each engine. */
export type Column = [name: string, kind: ColumnKind];
export type Row = (string | number | boolean | Date | null)[];

/** The columns the seed and the import write, in the order of their rows' values. */
export const COLUMNS = {
  post: [
    ["id", "text"], ["title", "text"], ["content", "text"], ["searchText", "text"], ["boardId", "text"], ["statusId", "text"],
    ["postedById", "text"], ["upvotes", "int"], ["createdAt", "time"], ["updatedAt", "time"],
  ],
  comment: [
    ["id", "text"], ["postId", "text"], ["postedById", "text"], ["commentDescription", "text"], ["pinned", "bool"],
    ["pinnedAt", "time"], ["createdAt", "time"], ["updatedAt", "time"],
  ],
  changelog: [
    ["id", "text"], ["title", "text"], ["content", "text"], ["searchText", "text"], ["status", "text"],
    ["publishedAt", "time"], ["sortAt", "time"], ["createdAt", "time"], ["updatedAt", "time"],
  ],
  changelogLabel: [["changelogId", "text"], ["name", "text"], ["nameKey", "text"]],
} satisfies Record<string, Column[]>;

/** Parameters per statement: under SQLite's 32766 and PostgreSQL's 65535. */
const MAX_PARAMETERS = 30_000;

export interface Upsert {
  /** The unique column a row already written is found by. */
  key: string;
  /** The columns an existing row takes from the new one; the others keep their values. */
  update: readonly string[];
}

/**
 * Writes the rows, as many a statement as the parameters allow. With `upsert`, a row whose key
 * exists already is updated instead (`ON CONFLICT ... DO UPDATE`, the same on both engines), so
 * no two rows given may share a key. `written` is told the rows written so far, after each
 * statement.
 */
export async function insertRows(
  tx: Tx,
  table: string,
  columns: readonly Column[],
  rows: readonly Row[],
  options: { upsert?: Upsert; written?: (count: number) => void } = {},
): Promise<void> {
  const perStatement = Math.floor(MAX_PARAMETERS / columns.length);
  const names = columns.map(([name]) => `"${name}"`).join(", ");
  const { upsert } = options;
  const onConflict = upsert
    ? ` ON CONFLICT ("${upsert.key}") DO UPDATE SET ${upsert.update.map((name) => `"${name}" = excluded."${name}"`).join(", ")}`
    : "";
  for (let start = 0; start < rows.length; start += perStatement) {
    const chunk = rows.slice(start, start + perStatement);
    const values: unknown[] = [];
    const tuples = chunk.map((row) => {
      const marks = columns.map(([, kind], i) => {
        values.push(dialect.encode(row[i] ?? null));
        return dialect.placeholder(values.length, kind);
      });
      return `(${marks.join(", ")})`;
    });
    await tx.$executeRawUnsafe(`INSERT INTO "${table}" (${names}) VALUES ${tuples.join(", ")}${onConflict}`, ...values);
    options.written?.(start + chunk.length);
  }
}

/** Every column but the key: what an upsert of a whole record updates. */
export const allBut = (columns: readonly Column[], key: string) => columns.map(([name]) => name).filter((name) => name !== key);

/**
 * Merge the search indexes of tables a bulk write changed (Dialect.mergeSearchIndexes). It is a
 * write of the whole index: at a million posts, about 7 s on SQLite.
 */
export async function mergeSearchIndexes(database: Db, tables: SearchTable[], progress: (message: string) => void): Promise<void> {
  const statements = tables.flatMap((table) => dialect.mergeSearchIndexes(table));
  if (!statements.length) return;
  progress(`merging the search indexes of ${tables.map((t) => `${t.toLowerCase()}s`).join(" and ")}`);
  for (const statement of statements) await database.$executeRawUnsafe(statement);
}
