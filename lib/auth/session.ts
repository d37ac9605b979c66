import "server-only";
import { randomBytes } from "node:crypto";
import { db, write } from "../db";
import { env } from "../env";
import { hashSecret } from "./keys";

// Dashboard sessions: a random token in an httpOnly cookie, stored only as its hash, tied to
// the API key that opened it (revoking the key ends the session).

export const SESSION_COOKIE = "feedback_session";

/**
 * Opens a session. The one the browser signed in from (its token, if it sent one) ends here,
 * so signing in again never leaves an old token alive; expired sessions are swept at the same
 * time, which keeps the table small without a background timer. Sign-ins are rare, so the
 * sweep's scan costs nothing that matters.
 */
export async function createSession(apiKeyId: string, previousToken?: string): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const now = Date.now();
  const expiresAt = new Date(now + env().SESSION_TTL_HOURS * 3_600_000);
  const ended = [{ expiresAt: { lte: new Date(now) } }, ...(previousToken ? [{ tokenHash: hashSecret(previousToken) }] : [])];
  await write(() =>
    db.$transaction([
      db.session.deleteMany({ where: { OR: ended } }),
      db.session.create({
        data: { id: `ses_${randomBytes(8).toString("hex")}`, tokenHash: hashSecret(token), apiKeyId, expiresAt },
      }),
    ]),
  );
  return { token, expiresAt };
}

export async function deleteSession(token: string): Promise<void> {
  await write(() => db.session.deleteMany({ where: { tokenHash: hashSecret(token) } }));
}

