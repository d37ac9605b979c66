// What a row's columns hold, so rows can be decoded once where they leave the database layer.
// The drivers disagree: SQLite returns times as ISO text and booleans as 0/1, PostgreSQL
// returns counts (bigint columns) as BigInt. Each query names the kinds of its columns, and
// read() turns them into Date, boolean, number and string[], the types every row type and
// serializer use. A "list" is a column of texts gathered by Dialect.listOf.

export type ColumnKind = "text" | "int" | "bool" | "time" | "list";

type KeysOf<T, V> = { [K in keyof T]-?: NonNullable<T[K]> extends V ? K : never }[keyof T];

/**
 * The kind of every Date, boolean and number column of T, required by the type: a row type
 * that gains a time or a count cannot be read without saying how to decode it.
 */
export type Kinds<T> = { [K in KeysOf<T, Date>]: "time" } & { [K in KeysOf<T, boolean>]: "bool" } & {
  [K in KeysOf<T, number>]: "int";
} & { [K in KeysOf<T, string[]>]: "list" };

/** A row type and how to decode it; `row` only carries T for read()'s result. */
export interface RowType<T> {
  readonly kinds: readonly (readonly [string, ColumnKind])[];
  readonly row?: T;
}

export function rowType<T>(kinds: Kinds<T>): RowType<T> {
  return { kinds: Object.entries(kinds) as [string, ColumnKind][] };
}

/** For a statement whose result is a single count, named "total". */
export const countRow = rowType<{ total: number }>({ total: "int" });
