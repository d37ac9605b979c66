import "server-only";
import { type Actor, auditWrite, type Changes, type RequestMeta } from "../audit/record";
import { ApiError } from "../api/errors";
import { versionTag } from "../api/conditional";
import { decode, Prisma, transact, write, writeAll } from "../db";
import { dialect } from "../dialect";
import { COMMENT_COLUMNS, commentRow } from "./queries";
import { changeRevisions } from "./revisions";
import type { UpdateCommentBody } from "./schemas";
import { type CommentRow, serializeComment } from "./serialize";
import type { WebhookEventType } from "../webhooks/events";
import { eventWrites, type Subscription, subscribersOf, subscriptions } from "../webhooks/outbox";

/**
 * When a change to this comment happens: now, or a millisecond after its last change if the
 * clock has not moved past that, so its updatedAt moves on every change. Only the comment's own
 * last change counts: a process-wide "later than the last" ran ahead of the clock whenever a
 * process made more than one change a millisecond (at 1,300 PUTs a second, 20 s ahead within a
 * minute), dating comments and audit events in the future and holding back their webhook
 * deliveries, due only when the clock caught up.
 */
const changeTime = (before: CommentRow) => new Date(Math.max(Date.now(), before.updatedAt.getTime() + 1));

export interface UpdateContext {
  actor: Actor;
  request?: RequestMeta;
  /** From If-Match: the versions the change may apply to, "any" for `*`, or none given. */
  ifMatch?: number[] | "any";
}

/** Whether If-Match allows a change to this version. */
const matches = (ifMatch: UpdateContext["ifMatch"], version: number) =>
  ifMatch === undefined || ifMatch === "any" || ifMatch.includes(version);

/**
 * The comment after the change: pinning a pinned comment keeps its pinnedAt, pinning an
 * unpinned one stamps it, unpinning clears it; every change moves updatedAt and the version.
 */
function changed(before: CommentRow, body: UpdateCommentBody, now: Date): CommentRow {
  let pinnedAt = before.pinnedAt;
  if (body.pinComment === true && !before.pinned) pinnedAt = now;
  if (body.pinComment === false) pinnedAt = null;
  return {
    ...before,
    commentDescription: body.commentDescription ?? before.commentDescription,
    pinned: body.pinComment ?? before.pinned,
    pinnedAt,
    updatedAt: now,
    version: before.version + 1,
  };
}

/**
 * Edits and/or pins one comment, and in the same transaction records its new revision, an
 * audit event and its webhook events: they commit together or not at all. The row is read
 * under a lock (PostgreSQL: FOR UPDATE; SQLite: its one writer), so the If-Match check, the new
 * version computed from the old, and the write are atomic: two writers holding the same version
 * cannot both succeed. Everything after the lock goes as one statement on PostgreSQL
 * (writeAll), so other writers of the comment wait for two round trips, not one per write.
 */
export async function updateComment(id: string, body: UpdateCommentBody, context: UpdateContext) {
  const { after: row, events } = await write(() =>
    transact(async (tx) => {
      const endpoints = await subscriptions(tx);
      const [before] = decode(
        await tx.$queryRaw<unknown[]>`SELECT ${COMMENT_COLUMNS} FROM "Comment" WHERE "id" = ${id}${dialect.lockRow}`,
        commentRow,
      );
      if (!before) throw new ApiError("not_found", `No comment has the id "${id}".`);
      if (!matches(context.ifMatch, before.version)) {
        throw new ApiError("precondition_failed", "The comment has changed since that version; nothing was changed.", {
          current: serializeComment(before),
          headers: { ETag: versionTag(before.version) },
        });
      }
      const now = changeTime(before);
      const after = changed(before, body, now);
      const changes: Changes = {};
      if (after.commentDescription !== before.commentDescription) {
        changes.commentDescription = { from: before.commentDescription, to: after.commentDescription };
      }
      if (after.pinned !== before.pinned) changes.pinned = { from: before.pinned, to: after.pinned };
      const action = changes.commentDescription || !changes.pinned ? "comment.updated" : after.pinned ? "comment.pinned" : "comment.unpinned";
      const audit = auditWrite({ action, resourceType: "comment", resourceId: id, changes, actor: context.actor, request: context.request }, now);
      const outbox = commentEvents(after, changes, context.actor, now, endpoints);
      await writeAll(tx, [
        Prisma.sql`
          UPDATE "Comment" SET "commentDescription" = ${after.commentDescription}, "pinned" = ${after.pinned},
            "pinnedAt" = ${after.pinnedAt}, "updatedAt" = ${after.updatedAt}, "version" = ${after.version}
          WHERE "id" = ${id}`,
        ...revisionWrites(before, after, now, context.actor),
        audit.statement,
        ...outbox.flatMap((event) => event.statements),
      ]);
      return { after, events: outbox.map((event) => event.id).filter((eventId): eventId is string => eventId !== null) };
    }),
  );
  return { comment: serializeComment(row), version: row.version, events };
}

/** The change's revisions (changeRevisions), the original's author named by the User row. */
function revisionWrites(before: CommentRow, after: CommentRow, now: Date, actor: Actor): Prisma.Sql[] {
  const author = Prisma.sql`COALESCE((SELECT "name" FROM "User" WHERE "id" = ${before.postedById}), '')`;
  return changeRevisions(before, after, { author, actor: Prisma.sql`${actor.name}` }, actor, now).map(
    (r) => Prisma.sql`
      INSERT INTO "CommentRevision" ("commentId", "version", "commentDescription", "pinned", "createdAt", "actorKeyId", "actorName", "via")
      VALUES (${before.id}, ${r.version}, ${r.commentDescription}, ${r.pinned}, ${r.createdAt}, ${r.actorKeyId}, ${r.actorName}, ${r.via})`,
  );
}

/**
 * One webhook event per kind of change, for the endpoints that want it: comment.updated when
 * the text changed, comment.pinned or comment.unpinned when the pin did; a save that changed
 * neither sends none.
 */
function commentEvents(after: CommentRow, changes: Changes, actor: Actor, now: Date, endpoints: Subscription[]) {
  const comment = serializeComment(after);
  const { keyId, name, via } = actor;
  const event = (type: WebhookEventType, change: Changes) =>
    eventWrites({ type, data: { comment, changes: change, actor: { keyId, name, via } } }, now, subscribersOf(endpoints, type));
  return [
    ...(changes.commentDescription ? [event("comment.updated", { commentDescription: changes.commentDescription })] : []),
    ...(changes.pinned ? [event(after.pinned ? "comment.pinned" : "comment.unpinned", { pinned: changes.pinned })] : []),
  ];
}
