import "server-only";
import { Prisma, read } from "./db";
import { rowType } from "./rows";

const READY_WITHIN_MS = 1_000;

/**
 * Whether the database answers a trivial query within a second, through the same path reads
 * take (on SQLite, a reader thread), so a stuck reader pool shows as not ready too.
 */
export async function readiness(): Promise<{ ready: boolean; reason?: string }> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`the database did not answer within ${READY_WITHIN_MS} ms`)), READY_WITHIN_MS);
  });
  try {
    await Promise.race([read(Prisma.sql`SELECT 1 AS "one"`, rowType<{ one: number }>({ one: "int" })), late]);
    return { ready: true };
  } catch (error) {
    return { ready: false, reason: error instanceof Error && /did not answer/.test(error.message) ? error.message : "the database is unavailable" };
  } finally {
    clearTimeout(timer);
  }
}
