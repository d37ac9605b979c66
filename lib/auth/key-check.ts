import "server-only";
import { AsyncLocalStorage } from "node:async_hooks";

// PostgreSQL: a read request's API key, confirmed by the request's own reads instead of a
// statement of its own. Each statement is a round trip that wakes a database backend, and the
// key's lookup was one of the two or three a read request made. A key read once is remembered
// (lib/auth/authenticate.ts); on its next read request, the first of the request's reads to
// return rows also returns the key's stored scopes, as long as the key is unrevoked, in the same
// statement, so on the same snapshot as the rows. The request's answer waits for that: scopes
// other than those remembered, or no read that returned rows, and the key is looked up as on any
// first request, before anything is answered (lib/api/handler.ts). So a key revoked before the
// request's reads began is refused as it was, and nothing read with it leaves the server.
//
// SQLite needs none of this: its remembered key is checked against the database's own count of
// commits (lib/sqlite/remembered.ts), which costs no round trip.

export interface KeyCheck {
  readonly keyId: string;
  /** The key's scopes as stored ("read,write"), when it was last looked up. */
  readonly scopes: string;
  /** What the first read that returned rows saw of the key: unchanged, or changed (revoked, gone, other scopes). */
  seen?: "unchanged" | "changed";
}

const checks = new AsyncLocalStorage<KeyCheck>();

/** Runs a request's work with its key to be confirmed by its reads. */
export function withKeyCheck<T>(check: KeyCheck, work: () => Promise<T>): Promise<T> {
  return checks.run(check, work);
}

/**
 * Starts `work` outside any request's check: a read a request sets going in the background for
 * every later search (lib/vocabulary.ts's word lists) must not carry the request's key, nor
 * keep its answer waiting.
 */
export function withoutKeyCheck<T>(work: () => T): T {
  return checks.exit(work);
}

/** The check a read should carry: the request's, until a read has seen the key. */
export function pendingKeyCheck(): KeyCheck | undefined {
  const check = checks.getStore();
  return check?.seen === undefined ? check : undefined;
}

const COLUMN = "keyScopes";

/**
 * A SELECT (PostgreSQL's text, with `parameters` numbered parameters) that also returns the
 * key's scopes as its last column, null once the key is revoked or gone; the key's id is the
 * next parameter. Its rows and their order are the SELECT's: PostgreSQL scans the subquery's
 * result as it comes. The text is closed on a line of its own, so that a comment at its end
 * (`-- ...`) cannot swallow the closing parenthesis.
 */
export function checkingText(text: string, parameters: number): string {
  return `SELECT "checked".*, (SELECT "scopes" FROM "ApiKey" WHERE "id" = $${parameters + 1} AND "revokedAt" IS NULL) AS "${COLUMN}" FROM (${text}\n) "checked"`;
}

/** Notes what a checking read's rows saw of the key, and takes the column off them. */
export function settle(check: KeyCheck, rows: Record<string, unknown>[]): void {
  const first = rows[0];
  if (!first) return;
  check.seen ??= first[COLUMN] === check.scopes ? "unchanged" : "changed";
  // The last property each row was given: V8 takes it off without slowing the row down.
  for (const row of rows) delete row[COLUMN];
}
