import "server-only";
import { LRUCache } from "lru-cache";
import { ApiError } from "../api/errors";
import { db, Prisma, read } from "../db";
import { dialect } from "../dialect";
import { log } from "../log";
import { rowType } from "../rows";
import type { KeyCheck } from "./key-check";
import { hashSecret, looksLikeKey, type Scope, SCOPES } from "./keys";
import { sessionToken } from "./session-cookie";

export { assertSameOrigin } from "./same-origin";

export interface Principal {
  keyId: string;
  keyName: string;
  scopes: Scope[];
  via: "bearer" | "session";
}

interface KeyRow {
  id: string;
  name: string;
  scopes: string;
  revokedAt: Date | null;
}

const keyRow = rowType<KeyRow>({ revokedAt: "time" });
const sessionRow = rowType<KeyRow & { expiresAt: Date }>({ revokedAt: "time", expiresAt: "time" });

/**
 * PostgreSQL: the keys looked up, by the hash of their secret, with their scopes as stored, for
 * read requests to confirm by their own reads (lib/auth/key-check.ts). Hashes only, never a
 * secret; a key that reads find changed is forgotten.
 */
const lookedUp = new LRUCache<string, { principal: Principal; scopes: string }>({ max: 1000 });

const CHALLENGE = { "WWW-Authenticate": 'Bearer realm="feedback"' };
const LAST_USED_EVERY_MS = 60_000;
const lastUsedWritten = new Map<string, number>();

function unauthorized(message: string): ApiError {
  return new ApiError("unauthorized", message, { headers: CHALLENGE });
}

function toScopes(value: string): Scope[] {
  return SCOPES.filter((s) => value.split(",").includes(s));
}

/**
 * Records when a key was last used, at most once a minute per key and process. Bookkeeping,
 * so best-effort: it never delays the request (nobody awaits it, and on SQLite the server's
 * connection does not wait for a lock), and a failed write is not tried again before the
 * next minute, so a locked or unavailable database does not see one attempt per request.
 */
function touch(keyId: string): void {
  const now = Date.now();
  if (now - (lastUsedWritten.get(keyId) ?? 0) < LAST_USED_EVERY_MS) return;
  lastUsedWritten.set(keyId, now);
  db.$executeRaw`UPDATE "ApiKey" SET "lastUsedAt" = ${new Date(now)} WHERE "id" = ${keyId}`.catch((error: unknown) => {
    log("debug", `Could not record when key ${keyId} was last used: ${error instanceof Error ? error.message : String(error)}`);
  });
}

/** Who is calling: a Bearer key, else the dashboard's session cookie. Throws 401. */
export async function authenticate(headers: Headers): Promise<Principal> {
  return (await caller(headers, false)).principal;
}

/**
 * As authenticate(), for a request that only reads: on PostgreSQL, a Bearer key looked up
 * before is not looked up again, and comes with the check its reads must settle
 * (lib/auth/key-check.ts; lib/api/handler.ts holds the answer until they have).
 */
export function authenticateRead(headers: Headers): Promise<{ principal: Principal; check?: KeyCheck }> {
  return caller(headers, dialect.engine === "postgres");
}

async function caller(headers: Headers, confirmByReads: boolean): Promise<{ principal: Principal; check?: KeyCheck }> {
  const authorization = headers.get("authorization");
  if (authorization !== null) {
    const match = /^Bearer +(\S+) *$/i.exec(authorization);
    if (!match?.[1]) throw unauthorized("The Authorization header must be: Bearer <API key>.");
    const secret = match[1];
    if (!looksLikeKey(secret)) throw unauthorized("The API key is not valid.");
    const hash = hashSecret(secret);
    const known = confirmByReads ? lookedUp.get(hash) : undefined;
    if (known) {
      touch(known.principal.keyId);
      return { principal: known.principal, check: { keyId: known.principal.keyId, scopes: known.scopes } };
    }
    // Raw SQL: this runs on every request, and Prisma's model API costs several times more CPU
    // than the lookup itself.
    const [key] = await read(Prisma.sql`SELECT "id", "name", "scopes", "revokedAt" FROM "ApiKey" WHERE "hash" = ${hash}`, keyRow, {
      lookup: true,
      remember: true,
    });
    if (!key || key.revokedAt) {
      lookedUp.delete(hash);
      throw unauthorized(key ? "The API key has been revoked." : "The API key is not valid.");
    }
    touch(key.id);
    const principal: Principal = { keyId: key.id, keyName: key.name, scopes: toScopes(key.scopes), via: "bearer" };
    if (dialect.engine === "postgres") lookedUp.set(hash, { principal, scopes: key.scopes });
    return { principal };
  }

  const token = sessionToken(headers);
  if (token) {
    const [session] = await read(
      Prisma.sql`
      SELECT k."id", k."name", k."scopes", k."revokedAt", s."expiresAt"
      FROM "Session" s JOIN "ApiKey" k ON k."id" = s."apiKeyId"
      WHERE s."tokenHash" = ${hashSecret(token)}`,
      sessionRow,
      { lookup: true, remember: true },
    );
    if (session && session.expiresAt > new Date() && !session.revokedAt) {
      touch(session.id);
      return { principal: { keyId: session.id, keyName: session.name, scopes: toScopes(session.scopes), via: "session" } };
    }
    throw unauthorized("Your session has ended. Sign in again.");
  }

  throw unauthorized("Missing API key: send the header Authorization: Bearer <API key>.");
}
