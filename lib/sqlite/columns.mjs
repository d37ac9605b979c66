// How SQLite gives back the column kinds that differ from their row types (lib/rows.ts): times
// as ISO text, booleans as 0/1, a list (Dialect.listOf) as JSON text. Plain JavaScript, shared
// by the dialect (rows from Prisma's client and the writer) and the readers (read-worker.mjs),
// which decode the rows they send, off the main thread (where `Date` is also Next.js's wrapper
// of the engine's): a hundred changelog rows cost the main thread 158-170 µs to receive with
// their times as Dates, against 290-298 to receive as text and decode. NULL stays null.

/** The decoder of each kind that needs one. */
export const decoders = {
  time: (value) => new Date(value),
  bool: (value) => value !== 0,
  list: (value) => JSON.parse(value),
};

/** `rows`, decoded in place column by column as `kinds` ([column, kind] pairs) says. */
export function decodeRows(rows, kinds) {
  for (const [column, kind] of kinds) {
    const decoder = decoders[kind];
    if (!decoder) continue;
    for (const row of rows) {
      const value = row[column];
      if (value !== null) row[column] = decoder(value);
    }
  }
  return rows;
}
