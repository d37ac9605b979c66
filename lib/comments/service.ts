import "server-only";
import { type Actor, type Changes, recordEvent, type RequestMeta } from "../audit/record";
import { ApiError } from "../api/errors";
import { versionTag } from "../api/conditional";
import { decode, Prisma, type Statements, transact, write } from "../db";
import { dialect } from "../dialect";
import { COMMENT_COLUMNS, commentRow } from "./queries";
import type { UpdateCommentBody } from "./schemas";
import { type CommentRow, serializeComment } from "./serialize";
import { enqueueEvent } from "../webhooks/outbox";

let lastStamp = 0;

/** Now, but strictly later than the last time this process handed out. */
function stamp(): Date {
  lastStamp = Math.max(Date.now(), lastStamp + 1);
  return new Date(lastStamp);
}

export interface UpdateContext {
  actor: Actor;
  request?: RequestMeta;
  /** From If-Match: the versions the change may apply to, "any" for `*`, or none given. */
  ifMatch?: number[] | "any";
}

function versionCondition(ifMatch: UpdateContext["ifMatch"]): Prisma.Sql {
  if (ifMatch === undefined || ifMatch === "any") return Prisma.empty;
  if (ifMatch.length === 0) return Prisma.sql` AND 1 = 0`;
  return Prisma.sql` AND "version" IN (${Prisma.join(ifMatch)})`;
}

/**
 * Edits and/or pins one comment, and in the same transaction records its new revision and an
 * audit event: the three commit together or not at all. The UPDATE itself checks If-Match's
 * version, so two writers holding the same version cannot both succeed. The right-hand sides
 * all see the row as it was: pinning a pinned comment keeps its pinnedAt, pinning an unpinned
 * one stamps it, unpinning clears it. Every successful update moves updatedAt and the version.
 */
export async function updateComment(id: string, body: UpdateCommentBody, context: UpdateContext) {
  const now = stamp();
  const set: Prisma.Sql[] = [];
  if (body.commentDescription !== undefined) set.push(Prisma.sql`"commentDescription" = ${body.commentDescription}`);
  if (body.pinComment === true) {
    set.push(Prisma.sql`"pinnedAt" = CASE WHEN "pinned" THEN "pinnedAt" ELSE ${now} END`, Prisma.sql`"pinned" = TRUE`);
  } else if (body.pinComment === false) {
    set.push(Prisma.sql`"pinnedAt" = NULL`, Prisma.sql`"pinned" = FALSE`);
  }
  set.push(Prisma.sql`"updatedAt" = ${now}`, Prisma.sql`"version" = "version" + 1`);

  const { after: row, events } = await write(() =>
    transact(async (tx) => {
      const [before] = decode(
        await tx.$queryRaw<unknown[]>`SELECT ${COMMENT_COLUMNS} FROM "Comment" WHERE "id" = ${id}${dialect.lockRow}`,
        commentRow,
      );
      if (!before) throw new ApiError("not_found", `No comment has the id "${id}".`);
      const [after] = decode(
        await tx.$queryRaw<unknown[]>`
          UPDATE "Comment" SET ${Prisma.join(set, ", ")} WHERE "id" = ${id}${versionCondition(context.ifMatch)}
          RETURNING ${COMMENT_COLUMNS}`,
        commentRow,
      );
      if (!after) {
        throw new ApiError("precondition_failed", "The comment has changed since that version; nothing was changed.", {
          current: serializeComment(before),
          headers: { ETag: versionTag(before.version) },
        });
      }
      await recordRevisions(tx, before, after, now, context.actor);
      const changes: Changes = {};
      if (after.commentDescription !== before.commentDescription) {
        changes.commentDescription = { from: before.commentDescription, to: after.commentDescription };
      }
      if (after.pinned !== before.pinned) changes.pinned = { from: before.pinned, to: after.pinned };
      const action = changes.commentDescription || !changes.pinned ? "comment.updated" : after.pinned ? "comment.pinned" : "comment.unpinned";
      await recordEvent(tx, { action, resourceType: "comment", resourceId: id, changes, actor: context.actor, request: context.request }, now);
      const events = await enqueueCommentEvents(tx, after, changes, context.actor, now);
      return { after, events };
    }),
  );
  return { comment: serializeComment(row), version: row.version, events };
}

/**
 * The new version, and on the comment's first change (version 1: every later version was
 * written by the change that made it) the original it replaces, as created or imported, by its
 * author, dated by its updatedAt.
 */
async function recordRevisions(tx: Statements, before: CommentRow, after: CommentRow, now: Date, actor: Actor): Promise<void> {
  if (before.version === 1) {
    const [author] = await tx.$queryRaw<{ name: string }[]>`SELECT "name" FROM "User" WHERE "id" = ${before.postedById}`;
    await insertRevision(tx, before, before.updatedAt, { keyId: null, name: author?.name ?? "", via: "author" });
  }
  await insertRevision(tx, after, now, actor);
}

function insertRevision(tx: Statements, row: CommentRow, at: Date, actor: { keyId: string | null; name: string; via: string }) {
  return tx.$executeRaw`
    INSERT INTO "CommentRevision" ("commentId", "version", "commentDescription", "pinned", "createdAt", "actorKeyId", "actorName", "via")
    VALUES (${row.id}, ${row.version}, ${row.commentDescription}, ${row.pinned}, ${at}, ${actor.keyId}, ${actor.name}, ${actor.via})`;
}

/**
 * One webhook event per kind of change, in the change's transaction: comment.updated when the
 * text changed, comment.pinned or comment.unpinned when the pin did; a save that changed
 * neither sends none. Returns the ids of the events some endpoint wants.
 */
async function enqueueCommentEvents(tx: Statements, after: CommentRow, changes: Changes, actor: Actor, now: Date): Promise<string[]> {
  const comment = serializeComment(after);
  const { keyId, name, via } = actor;
  const events: (string | null)[] = [];
  if (changes.commentDescription) {
    events.push(await enqueueEvent(
      tx,
      { type: "comment.updated", data: { comment, changes: { commentDescription: changes.commentDescription }, actor: { keyId, name, via } } },
      now,
    ));
  }
  if (changes.pinned) {
    events.push(await enqueueEvent(
      tx,
      {
        type: after.pinned ? "comment.pinned" : "comment.unpinned",
        data: { comment, changes: { pinned: changes.pinned }, actor: { keyId, name, via } },
      },
      now,
    ));
  }
  return events.filter((id): id is string => id !== null);
}
