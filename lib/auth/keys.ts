import "server-only";
import { createHash, randomBytes } from "node:crypto";
import { db } from "../db";

// API keys: `fbk_` and 256 random bits in base64url, shown once and stored only as SHA-256.
// A plain hash is the right tool here: the secret is random and long, so there is nothing
// for a slow hash to protect against, and every request can afford one lookup by hash.

export const SCOPES = ["read", "write"] as const;
export type Scope = (typeof SCOPES)[number];

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

export async function createKey(name: string, scopes: Scope[] = [...SCOPES]): Promise<CreatedKey> {
  const key = generateKey();
  const id = `key_${randomBytes(8).toString("hex")}`;
  await db.apiKey.create({
    data: { id, name, prefix: key.slice(0, 12), hash: hashSecret(key), scopes: scopes.join(",") },
  });
  return { id, name, key, scopes };
}

export async function listKeys() {
  return db.apiKey.findMany({
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
    select: { id: true, name: true, prefix: true, scopes: true, createdAt: true, lastUsedAt: true, revokedAt: true },
  });
}

/** Revokes a key and ends its dashboard sessions. Returns false for an unknown id. */
export async function revokeKey(id: string): Promise<boolean> {
  return db.$transaction(async (tx) => {
    const found = await tx.apiKey.findUnique({ where: { id }, select: { revokedAt: true } });
    if (!found) return false;
    if (!found.revokedAt) await tx.apiKey.update({ where: { id }, data: { revokedAt: new Date() } });
    await tx.session.deleteMany({ where: { apiKeyId: id } });
    return true;
  });
}
