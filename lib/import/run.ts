import "server-only";
import { type Actor, cliActor, recordEvent } from "../audit/record";
import { allBut, type Column, COLUMNS, insertRows, mergeSearchIndexes, type Row } from "../bulk";
import { type Db, db, type Tx, Prisma } from "../db";
import { changeRevisions } from "../comments/revisions";
import { dialect } from "../dialect";
import { fold, searchTextOf, userSearchTextOf } from "../search";
import { type ImportFile, importFile, jsonPath } from "./schema";

// `feedback import`: validate the whole file first (shape, duplicates, references), then write
// everything in one transaction, upserting by id, so a second run changes nothing.

export interface ImportProblem {
  path: string;
  message: string;
}

export class ImportError extends Error {
  constructor(readonly problems: ImportProblem[]) {
    const first = problems[0];
    super(
      `${first ? `${first.path}: ${first.message}` : "invalid file"}${problems.length > 1 ? ` (and ${problems.length - 1} more)` : ""}`,
    );
    this.name = "ImportError";
  }
}

/** How many records of each kind a dataset holds. */
export interface DatasetCounts {
  boards: number;
  statuses: number;
  users: number;
  posts: number;
  comments: number;
  changelogs: number;
}

type Progress = (done: number, total: number) => void;

const CHUNK = 500;

function chunks<T>(items: T[], size = CHUNK): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

async function existingIds(ids: Set<string>, find: (chunk: string[]) => Promise<{ id: string }[]>): Promise<Set<string>> {
  const found = new Set<string>();
  for (const chunk of chunks([...ids])) for (const row of await find(chunk)) found.add(row.id);
  return found;
}

/** Parses and checks the whole file against itself and the database. Throws ImportError. */
export async function validateImport(raw: unknown, database: Db = db): Promise<ImportFile> {
  const parsed = importFile.safeParse(raw);
  if (!parsed.success) {
    throw new ImportError(parsed.error.issues.map((i) => ({ path: jsonPath(i.path), message: i.message })));
  }
  const data = parsed.data;
  const problems: ImportProblem[] = [];

  const idsOf = <T extends { id: string }>(name: string, items: T[]) => {
    const seen = new Map<string, number>();
    items.forEach((item, i) => {
      const first = seen.get(item.id);
      if (first !== undefined) problems.push({ path: `${name}[${i}].id`, message: `duplicate id "${item.id}" (first at ${name}[${first}])` });
      else seen.set(item.id, i);
    });
    return new Set(seen.keys());
  };
  const boards = idsOf("boards", data.boards);
  const statuses = idsOf("statuses", data.statuses);
  const users = idsOf("users", data.users);
  const posts = idsOf("posts", data.posts);
  idsOf("comments", data.comments);
  idsOf("changelogs", data.changelogs);

  // An email belongs to one user (a unique column): not to two of the file's, nor to a user of
  // the database's that the file does not name.
  const emails = new Map<string, number>();
  data.users.forEach((u, i) => {
    if (!u.email) return;
    const first = emails.get(u.email);
    if (first !== undefined) problems.push({ path: `users[${i}].email`, message: `"${u.email}" is also the email of users[${first}]` });
    else emails.set(u.email, i);
  });
  for (const chunk of chunks([...emails.keys()])) {
    for (const holder of await database.user.findMany({ where: { email: { in: chunk } }, select: { id: true, email: true } })) {
      const i = emails.get(holder.email ?? "") as number;
      if (holder.id !== data.users[i]?.id && !users.has(holder.id)) {
        problems.push({ path: `users[${i}].email`, message: `the user "${holder.id}" already has the email "${holder.email}"` });
      }
    }
  }

  // References to records not in the file must already be in the database.
  const wanted = { boards: new Set<string>(), statuses: new Set<string>(), users: new Set<string>(), posts: new Set<string>() };
  for (const p of data.posts) {
    if (!boards.has(p.boardId)) wanted.boards.add(p.boardId);
    if (p.statusId !== null && !statuses.has(p.statusId)) wanted.statuses.add(p.statusId);
    if (!users.has(p.postedById)) wanted.users.add(p.postedById);
  }
  for (const c of data.comments) {
    if (!posts.has(c.postId)) wanted.posts.add(c.postId);
    if (!users.has(c.postedById)) wanted.users.add(c.postedById);
  }
  const found = {
    boards: await existingIds(wanted.boards, (ids) => database.board.findMany({ where: { id: { in: ids } }, select: { id: true } })),
    statuses: await existingIds(wanted.statuses, (ids) => database.postStatus.findMany({ where: { id: { in: ids } }, select: { id: true } })),
    users: await existingIds(wanted.users, (ids) => database.user.findMany({ where: { id: { in: ids } }, select: { id: true } })),
    posts: await existingIds(wanted.posts, (ids) => database.post.findMany({ where: { id: { in: ids } }, select: { id: true } })),
  };
  const resolves = (kind: keyof typeof found, inFile: Set<string>, value: string) => inFile.has(value) || found[kind].has(value);

  data.posts.forEach((p, i) => {
    if (!resolves("boards", boards, p.boardId)) problems.push({ path: `posts[${i}].boardId`, message: `no board has the id "${p.boardId}"` });
    if (p.statusId !== null && !resolves("statuses", statuses, p.statusId)) {
      problems.push({ path: `posts[${i}].statusId`, message: `no status has the id "${p.statusId}"` });
    }
    if (!resolves("users", users, p.postedById)) problems.push({ path: `posts[${i}].postedById`, message: `no user has the id "${p.postedById}"` });
    if (p.updatedAt && p.updatedAt < p.createdAt) problems.push({ path: `posts[${i}].updatedAt`, message: "must not be before createdAt" });
  });
  data.comments.forEach((c, i) => {
    if (!resolves("posts", posts, c.postId)) problems.push({ path: `comments[${i}].postId`, message: `no post has the id "${c.postId}"` });
    if (!resolves("users", users, c.postedById)) problems.push({ path: `comments[${i}].postedById`, message: `no user has the id "${c.postedById}"` });
    if (!c.pinned && c.pinnedAt) problems.push({ path: `comments[${i}].pinnedAt`, message: "an unpinned comment must not have pinnedAt" });
  });

  if (problems.length) throw new ImportError(problems);
  return data;
}

const BOARD: Column[] = [["id", "text"], ["name", "text"], ["createdAt", "time"]];
const STATUS: Column[] = [["id", "text"], ["name", "text"], ["color", "text"], ["position", "int"]];
const USER: Column[] = [["id", "text"], ["name", "text"], ["email", "text"], ["searchText", "text"], ["createdAt", "time"]];
const REVISION: Column[] = [
  ["commentId", "text"], ["version", "int"], ["commentDescription", "text"], ["pinned", "bool"], ["createdAt", "time"],
  ["actorKeyId", "text"], ["actorName", "text"], ["via", "text"],
];

interface Existing {
  id: string;
  postId: string;
  version: number;
  commentDescription: string;
  pinned: boolean;
  updatedAt: Date;
  author: string;
}

/**
 * Upserts every record by id, many a statement (lib/bulk.ts), as Prisma's upsert would one at
 * a time: a new record is created whole; an existing one takes the file's values, but keeps
 * when it was created (boards and users, whose files carry no such time).
 */
async function writeAll(tx: Tx, data: ImportFile, progress: Progress, actor: Actor): Promise<void> {
  const total =
    data.boards.length + data.statuses.length + data.users.length + data.posts.length + data.comments.length + data.changelogs.length;
  let before = 0;
  const upsert = async (table: string, columns: Column[], rows: Row[], update = allBut(columns, "id")) => {
    await insertRows(tx, table, columns, rows, { upsert: { key: "id", update }, written: (count) => progress(before + count, total) });
    before += rows.length;
  };
  const now = new Date();

  await upsert("Board", BOARD, data.boards.map((b) => [b.id, b.name, now]), ["name"]);
  await upsert("PostStatus", STATUS, data.statuses.map((s, index) => [s.id, s.name, s.color.toLowerCase(), s.position ?? index]));
  await upsert(
    "User",
    USER,
    data.users.map((u) => [u.id, u.name, u.email ?? null, userSearchTextOf(u.name), now]),
    ["name", "email", "searchText"],
  );
  await upsert(
    "Post",
    COLUMNS.post,
    data.posts.map((p) => [
      p.id,
      p.title,
      p.content,
      searchTextOf(p.title, p.content),
      p.boardId,
      p.statusId,
      p.postedById,
      p.upvotes,
      p.createdAt,
      p.updatedAt ?? p.createdAt,
    ]),
  );
  // What the file's comments were: a comment that moves to another post leaves its old post one
  // fewer (recounted below), and one whose text or pin changes gets a new version, as an edit
  // through the API would (its ETag moves, and its revisions say the import made it).
  const was = new Map<string, Existing>();
  for (const ids of chunks(data.comments.map((c) => c.id))) {
    // Prisma's client types the columns itself on both engines (no decode(): that is for rows
    // straight from a driver).
    const rows = await tx.$queryRaw<Existing[]>`
      SELECT c."id", c."postId", c."version", c."commentDescription", c."pinned", c."updatedAt", COALESCE(u."name", '') AS "author"
      FROM "Comment" c LEFT JOIN "User" u ON u."id" = c."postedById"
      WHERE c."id" IN (${Prisma.join(ids)})`;
    for (const row of rows) was.set(row.id, row);
  }
  await upsert(
    "Comment",
    COLUMNS.comment,
    data.comments.map((c) => {
      const updatedAt = c.updatedAt ?? c.createdAt;
      return [c.id, c.postId, c.postedById, c.commentDescription, c.pinned, c.pinned ? (c.pinnedAt ?? updatedAt) : null, c.createdAt, updatedAt];
    }),
  );
  const changed = data.comments.filter((c) => {
    const before = was.get(c.id);
    return before && (before.commentDescription !== c.commentDescription || before.pinned !== c.pinned);
  });
  const revisions: Row[] = [];
  for (const c of changed) {
    const before = was.get(c.id) as Existing;
    for (const r of changeRevisions(before, c, { author: before.author, actor: actor.name }, actor, now)) {
      revisions.push([c.id, r.version, r.commentDescription, r.pinned, r.createdAt, r.actorKeyId, r.actorName, r.via]);
    }
  }
  for (const ids of chunks(changed.map((c) => c.id))) {
    await tx.$executeRaw`UPDATE "Comment" SET "version" = "version" + 1 WHERE "id" IN (${Prisma.join(ids)})`;
  }
  await insertRows(tx, "CommentRevision", REVISION, revisions);
  const labels: Row[] = [];
  const changelogs = data.changelogs.map((c): Row => {
    const updatedAt = c.updatedAt ?? c.createdAt;
    const publishedAt = c.status === "Published" ? (c.publishedAt ?? null) : null;
    const named = new Map<string, string>();
    for (const name of c.labels) if (!named.has(fold(name))) named.set(fold(name), name);
    for (const [nameKey, name] of named) labels.push([c.id, name, nameKey]);
    return [c.id, c.title, c.content, searchTextOf(c.title, c.content), c.status, publishedAt, publishedAt ?? updatedAt, c.createdAt, updatedAt];
  });
  await upsert("Changelog", COLUMNS.changelog, changelogs);
  // A changelog's labels are the file's: the ones it had before go.
  for (const ids of chunks(data.changelogs.map((c) => c.id))) {
    await tx.$executeRaw`DELETE FROM "ChangelogLabel" WHERE "changelogId" IN (${Prisma.join(ids)})`;
  }
  await insertRows(tx, "ChangelogLabel", COLUMNS.changelogLabel, labels);

  // commentCount is derived: recount every post this file touched.
  const touched = [...new Set([...data.posts.map((p) => p.id), ...data.comments.map((c) => c.postId), ...[...was.values()].map((c) => c.postId)])];
  for (const ids of chunks(touched)) await recountComments(tx, ids);
}

/** Sets commentCount from the comments themselves, for a chunk of posts, in one statement. */
export async function recountComments(tx: Tx | Db, postIds: string[]): Promise<void> {
  await tx.$executeRaw`
    UPDATE "Post" SET "commentCount" = (SELECT count(*) FROM "Comment" c WHERE c."postId" = "Post"."id")
    WHERE "id" IN (${Prisma.join(postIds)})`;
}

export interface ImportOptions {
  progress?: Progress;
  /** Who applies it, for the audit trail. */
  actor?: Actor;
  /** What the import came from (a file's name), kept as the event's resource id. */
  source?: string;
  /** Called when another import is running: this one waits for it to end, then runs. */
  waiting?: () => void;
  /** Told what the import does once its rows are committed (merging the search indexes). */
  note?: (message: string) => void;
}

/**
 * An import that writes at least this many posts (or changelogs) merges their search indexes
 * afterwards (lib/bulk.ts): a large import leaves them in many parts, each read by every search.
 * A smaller one leaves the merging to the index itself, since merging writes the whole index
 * (about 7 s at a million posts on SQLite).
 */
const MERGE_AFTER_ROWS = 1000;

/** How often an import waiting for its turn asks again. */
const TURN_POLL_MS = 250;

/**
 * Waits for any other import to end (dialect.importTurn), saying so first if one is running.
 * It asks again and again rather than waiting in one statement, which the statement timeout
 * (DATABASE_STATEMENT_TIMEOUT_MS) would cut short: an import waits however long the other takes.
 */
async function takeTurn(tx: Tx, waiting: () => void): Promise<void> {
  const turn = dialect.importTurn;
  if (!turn) return;
  for (let attempt = 0; ; attempt += 1) {
    const [row] = await tx.$queryRaw<{ taken: boolean }[]>(turn);
    if (row?.taken) return;
    if (attempt === 0) waiting();
    await new Promise((resolve) => setTimeout(resolve, TURN_POLL_MS));
  }
}

/** Validates, then writes the whole dataset and its one import.applied event in one transaction. */
export async function runImport(raw: unknown, options: ImportOptions = {}, database: Db = db): Promise<DatasetCounts> {
  const data = await validateImport(raw, database);
  const counts: DatasetCounts = {
    boards: data.boards.length,
    statuses: data.statuses.length,
    users: data.users.length,
    posts: data.posts.length,
    comments: data.comments.length,
    changelogs: data.changelogs.length,
  };
  const actor = options.actor ?? cliActor();
  await database.$transaction(
    async (tx) => {
      await takeTurn(tx, options.waiting ?? (() => {}));
      // The event next, and first on SQLite, where takeTurn sends nothing: there a transaction
      // whose first statement writes takes the write lock at once, waiting for another writer in
      // the busy handler. One that reads first (an upsert does) holds a snapshot, and fails at
      // its first write if another connection (the server recording a key's use) has committed
      // since: SQLITE_BUSY_SNAPSHOT, no wait.
      await recordEvent(tx, {
        action: "import.applied",
        resourceType: "import",
        resourceId: options.source ?? null,
        changes: { ...counts },
        actor,
      });
      await writeAll(tx, data, options.progress ?? (() => {}), actor);
    },
    { timeout: 24 * 3_600_000, maxWait: 60_000 },
  );
  const note = options.note ?? (() => {});
  const written = { Post: counts.posts, Changelog: counts.changelogs };
  const merged = (["Post", "Changelog"] as const).filter((table) => written[table] >= MERGE_AFTER_ROWS);
  try {
    await mergeSearchIndexes(database, merged, note);
  } catch (error) {
    // The rows are committed: a merge that could not run (another writer held the lock too
    // long) leaves searches exact, only slower, and the next large import merges them.
    note(`the search indexes were not merged (${(error as Error).message}); searches are exact, only slower`);
  }
  return counts;
}
