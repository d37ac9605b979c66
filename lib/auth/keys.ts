import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { type Actor, cliActor, recordEvent } from "../audit/record";
import { db, write } from "../db";

// API keys: `fbk_` and 256 random bits in base64url, shown once and stored only as SHA-256.
// A plain hash is the right tool here: the secret is random and long, so there is nothing
// for a slow hash to protect against, and every request can afford one lookup by hash.

export const SCOPES = ["read", "write", "admin"] as const;
export type Scope = (typeof SCOPES)[number];

/** What a new key may do unless told otherwise; admin (the audit trail) is never implied. */
export const DEFAULT_SCOPES: readonly Scope[] = ["read", "write"];

const KEY_PREFIX = "fbk_";

export function hashSecret(secret: string): string {
  return createHash("sha256").update(secret).digest("hex");
}

export function generateKey(): string {
  return KEY_PREFIX + randomBytes(32).toString("base64url");
}

export function looksLikeKey(value: string): boolean {
  return /^fbk_[A-Za-z0-9_-]{32,128}$/.test(value);
}

export function parseScopes(value: string): Scope[] {
  const scopes = value.split(",").map((s) => s.trim()).filter(Boolean);
  const unknown = scopes.filter((s) => !(SCOPES as readonly string[]).includes(s));
  if (unknown.length) throw new Error(`unknown scope ${unknown.join(", ")}; use ${SCOPES.join(", ")}`);
  if (!scopes.length) throw new Error(`give at least one scope (${SCOPES.join(", ")})`);
  return SCOPES.filter((s) => scopes.includes(s));
}

export interface CreatedKey {
  id: string;
  name: string;
  key: string;
  scopes: Scope[];
}

/** Makes a key and records key.created in the same transaction. */
export async function createKey(name: string, scopes: readonly Scope[] = DEFAULT_SCOPES, actor: Actor = cliActor()): Promise<CreatedKey> {
  const key = generateKey();
  const id = `key_${randomBytes(8).toString("hex")}`;
  const at = new Date();
  await write(() =>
    db.$transaction(async (tx) => {
      await tx.apiKey.create({
        data: { id, name, prefix: key.slice(0, 12), hash: hashSecret(key), scopes: scopes.join(","), createdAt: at },
      });
      await recordEvent(
        tx,
        {
          action: "key.created",
          resourceType: "key",
          resourceId: id,
          changes: { name: { from: null, to: name }, scopes: { from: null, to: scopes.join(",") } },
          actor,
        },
        at,
      );
    }),
  );
  return { id, name, key, scopes: [...scopes] };
}

export async function listKeys() {
  return db.apiKey.findMany({
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, name: true, prefix: true, scopes: true, createdAt: true, lastUsedAt: true, revokedAt: true },
  });
}

/**
 * Revokes a key and ends its dashboard sessions, recording key.revoked in the same transaction.
 * A key already revoked stays as it was and records nothing, since nothing changed.
 */
export async function revokeKey(id: string, actor: Actor = cliActor()): Promise<"revoked" | "already-revoked" | "unknown"> {
  return write(() =>
    db.$transaction(async (tx) => {
      const found = await tx.apiKey.findUnique({ where: { id }, select: { revokedAt: true } });
      if (!found) return "unknown";
      if (found.revokedAt) return "already-revoked";
      const at = new Date();
      await tx.apiKey.update({ where: { id }, data: { revokedAt: at } });
      await tx.session.deleteMany({ where: { apiKeyId: id } });
      await recordEvent(
        tx,
        { action: "key.revoked", resourceType: "key", resourceId: id, changes: { revokedAt: { from: null, to: at.toISOString() } }, actor },
        at,
      );
      return "revoked";
    }),
  );
}
