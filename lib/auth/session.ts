import { randomBytes } from "node:crypto";
import { db, write } from "../db";
import { env } from "../env";
import { hashSecret } from "./keys";

// Dashboard sessions: a random token in an httpOnly cookie, stored only as its hash, tied to
// the API key that opened it (revoking the key ends the session).

export const SESSION_COOKIE = "feedback_session";

export async function createSession(apiKeyId: string): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + env().SESSION_TTL_HOURS * 3_600_000);
  await write(() =>
    db.session.create({
      data: { id: `ses_${randomBytes(8).toString("hex")}`, tokenHash: hashSecret(token), apiKeyId, expiresAt },
    }),
  );
  return { token, expiresAt };
}

export async function deleteSession(token: string): Promise<void> {
  await write(() => db.session.deleteMany({ where: { tokenHash: hashSecret(token) } }));
}

