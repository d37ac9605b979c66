import "server-only";
import { randomBytes } from "node:crypto";
import { type Actor, recordEvent, type RequestMeta } from "../audit/record";
import { db, write } from "../db";
import { env } from "../env";
import { hashSecret, looksLikeKey } from "./keys";

// Dashboard sessions: a random token in an httpOnly cookie, stored only as its hash, tied to
// the API key that opened it (revoking the key ends the session).

export const SESSION_COOKIE = "feedback_session";

/** The key that signs in or out, as the audit trail names it. */
export interface SessionKey {
  id: string;
  name: string;
}

const dashboardActor = (key: SessionKey): Actor => ({ keyId: key.id, name: key.name, via: "dashboard" });

/**
 * Opens a session and records session.created in the same transaction. The one the browser
 * signed in from (its token, if it sent one) ends here, so signing in again never leaves an old
 * token alive; expired sessions are swept at the same time, which keeps the table small without
 * a background timer. Sign-ins are rare, so the sweep's scan costs nothing that matters.
 */
export async function createSession(
  key: SessionKey,
  request: RequestMeta,
  previousToken?: string,
): Promise<{ token: string; expiresAt: Date }> {
  const token = randomBytes(32).toString("base64url");
  const at = new Date();
  const expiresAt = new Date(at.getTime() + env().SESSION_TTL_HOURS * 3_600_000);
  const ended = [{ expiresAt: { lte: at } }, ...(previousToken ? [{ tokenHash: hashSecret(previousToken) }] : [])];
  const id = `ses_${randomBytes(8).toString("hex")}`;
  await write(() =>
    db.$transaction(
      async (tx) => {
        await tx.session.deleteMany({ where: { OR: ended } });
        await tx.session.create({ data: { id, tokenHash: hashSecret(token), apiKeyId: key.id, expiresAt } });
        await recordEvent(
          tx,
          {
            action: "session.created",
            resourceType: "session",
            resourceId: id,
            changes: { expiresAt: { from: null, to: expiresAt.toISOString() } },
            actor: dashboardActor(key),
            request,
          },
          at,
        );
      },
      { maxWait: env().DATABASE_LOCK_TIMEOUT_MS },
    ),
  );
  return { token, expiresAt };
}

/** Ends the session a token opened, recording session.ended with it; an unknown token changes nothing. */
export async function deleteSession(token: string, request: RequestMeta): Promise<void> {
  await write(() =>
    db.$transaction(
      async (tx) => {
        const session = await tx.session.findUnique({
          where: { tokenHash: hashSecret(token) },
          select: { id: true, apiKey: { select: { id: true, name: true } } },
        });
        if (!session) return;
        await tx.session.delete({ where: { id: session.id } });
        await recordEvent(tx, {
          action: "session.ended",
          resourceType: "session",
          resourceId: session.id,
          changes: {},
          actor: dashboardActor(session.apiKey),
          request,
        });
      },
      { maxWait: env().DATABASE_LOCK_TIMEOUT_MS },
    ),
  );
}

/**
 * Records a refused sign-in: its own write, since a refusal changes nothing else. The actor is
 * the key only when the submitted text is a (revoked) key's; the submitted text itself, or any
 * part of it, is never stored.
 */
export async function recordRefusedSignIn(submitted: string, request: RequestMeta): Promise<void> {
  const key = looksLikeKey(submitted)
    ? await db.apiKey.findUnique({ where: { hash: hashSecret(submitted) }, select: { id: true, name: true } })
    : null;
  await write(() =>
    recordEvent(db, {
      action: "session.refused",
      resourceType: "session",
      resourceId: null,
      changes: { reason: key ? "revoked key" : "unknown key" },
      actor: key ? dashboardActor(key) : { keyId: null, name: "unknown key", via: "dashboard" },
      request,
    }),
  );
}
