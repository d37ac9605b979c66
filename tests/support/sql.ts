import Database from "better-sqlite3";
import pg from "pg";

// One statement straight against a test app's database, for what no endpoint or command does
// (making a session look expired, counting rows). `?` placeholders, on either engine.
export async function sql<T = Record<string, unknown>>(databaseUrl: string, text: string, params: unknown[] = []): Promise<T[]> {
  if (databaseUrl.startsWith("file:")) {
    const db = new Database(databaseUrl.slice("file:".length));
    try {
      const statement = db.prepare(text);
      if (statement.reader) return statement.all(...params) as T[];
      statement.run(...params);
      return [];
    } finally {
      db.close();
    }
  }
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    let n = 0;
    return (await client.query(text.replace(/\?/g, () => `$${++n}`), params)).rows as T[];
  } finally {
    await client.end();
  }
}

/**
 * A time as the app stores it, for a statement written by hand: on SQLite the text Prisma's
 * adapter writes (ISO 8601 with +00:00, which compares bytewise with the app's own; the same as
 * lib/dialect.ts's encode, which this module cannot load: the benchmark loads it outside
 * Next.js's server condition), on PostgreSQL an ISO 8601 instant (a Date would be sent in the
 * local time zone).
 */
export const storedTime = (databaseUrl: string, at: Date): string =>
  databaseUrl.startsWith("file:") ? at.toISOString().replace("Z", "+00:00") : at.toISOString();
