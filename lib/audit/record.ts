import "server-only";
import os from "node:os";
import type { Principal } from "../auth/authenticate";
import { Prisma, type Statements } from "../db";
import { sortableId } from "../ids";

// The audit trail's one writer. Every change the service makes calls recordEvent with the
// transaction that makes the change, so the event and the change commit or fail together.

export const AUDIT_ACTIONS = [
  "comment.updated",
  "comment.pinned",
  "comment.unpinned",
  "key.created",
  "key.revoked",
  "import.applied",
  "session.created",
  "session.refused",
  "session.ended",
  "webhook.created",
  "webhook.updated",
  "webhook.deleted",
  "webhook.secret_rotated",
  "webhook.tested",
  "webhook.redelivered",
  "webhook.replayed",
  "webhook.disabled",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

// "system": the service acting on its own (the webhook dispatcher disabling a failing endpoint),
// with no key, request or operator behind it.
export const AUDIT_VIAS = ["api", "dashboard", "cli", "system"] as const;
export type Via = (typeof AUDIT_VIAS)[number];

/** Who acted: a key (its id and its name at the time), and through what. */
export interface Actor {
  keyId: string | null;
  name: string;
  via: Via;
}

/** Where a request came from; absent for the command line. */
export interface RequestMeta {
  requestId: string | null;
  ip: string | null;
  userAgent: string | null;
}

/** A field's value before and after. */
export type Changes = Record<string, { from: unknown; to: unknown }>;

export interface NewEvent {
  action: AuditAction;
  resourceType: string;
  resourceId: string | null;
  /** The fields that changed; for an import, its counts. */
  changes: Changes | Record<string, unknown>;
  actor: Actor;
  request?: RequestMeta;
}

/** The actor behind an API request: the key, through the API or a dashboard session. */
export function actorOf(principal: Principal): Actor {
  return { keyId: principal.keyId, name: principal.keyName, via: principal.via === "session" ? "dashboard" : "api" };
}

/** The operator at a shell: no key acts, so the name says which account ran the command. */
export function cliActor(): Actor {
  let user = "unknown user";
  try {
    user = os.userInfo().username;
  } catch {
    // A container may run under a uid with no passwd entry.
  }
  return { keyId: null, name: `cli (${user})`, via: "cli" };
}

/** The service itself, acting on a rule rather than on anyone's request. */
export function systemActor(what: string): Actor {
  return { keyId: null, name: what, via: "system" };
}

const USER_AGENT_MAX = 512;

/** The request's id, address and user agent, as the audit trail keeps them. */
export function requestMetaOf(requestId: string, ip: string | null, headers: Headers): RequestMeta {
  return { requestId, ip, userAgent: headers.get("user-agent")?.slice(0, USER_AGENT_MAX) ?? null };
}

/** A sortable event id (lib/ids.ts): newest first is id descending, on both engines. */
export const eventId = (at: Date) => sortableId("evt", at);

/** The INSERT that records one event, and the event's id, for a change that makes its writes together (writeAll). */
export function auditWrite(event: NewEvent, at = new Date()): { id: string; statement: Prisma.Sql } {
  const id = eventId(at);
  const request = event.request;
  const statement = Prisma.sql`
    INSERT INTO "AuditEvent" ("id", "createdAt", "actorKeyId", "actorName", "via", "action", "resourceType", "resourceId",
      "changes", "requestId", "ip", "userAgent")
    VALUES (${id}, ${at}, ${event.actor.keyId}, ${event.actor.name}, ${event.actor.via}, ${event.action},
      ${event.resourceType}, ${event.resourceId}, ${JSON.stringify(event.changes)}, ${request?.requestId ?? null},
      ${request?.ip ?? null}, ${request?.userAgent ?? null})`;
  return { id, statement };
}

/** Writes one event; call it inside the change's transaction. */
export async function recordEvent(tx: Statements, event: NewEvent, at = new Date()): Promise<string> {
  const { id, statement } = auditWrite(event, at);
  await tx.$executeRaw(statement);
  return id;
}
