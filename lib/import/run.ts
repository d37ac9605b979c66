import "server-only";
import { type Actor, cliActor, recordEvent } from "../audit/record";
import { type Db, db, type Tx, Prisma } from "../db";
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

async function writeAll(tx: Tx, data: ImportFile, progress: Progress): Promise<void> {
  const total =
    data.boards.length + data.statuses.length + data.users.length + data.posts.length + data.comments.length + data.changelogs.length;
  let done = 0;
  const step = () => {
    done += 1;
    if (done % 1000 === 0 || done === total) progress(done, total);
  };

  for (const b of data.boards) {
    await tx.board.upsert({ where: { id: b.id }, create: { id: b.id, name: b.name }, update: { name: b.name } });
    step();
  }
  for (const [index, s] of data.statuses.entries()) {
    const values = { name: s.name, color: s.color.toLowerCase(), position: s.position ?? index };
    await tx.postStatus.upsert({ where: { id: s.id }, create: { id: s.id, ...values }, update: values });
    step();
  }
  for (const u of data.users) {
    const values = { name: u.name, email: u.email ?? null, searchText: userSearchTextOf(u.name) };
    await tx.user.upsert({ where: { id: u.id }, create: { id: u.id, ...values }, update: values });
    step();
  }
  for (const p of data.posts) {
    const values = {
      title: p.title,
      content: p.content,
      searchText: searchTextOf(p.title, p.content),
      boardId: p.boardId,
      statusId: p.statusId,
      postedById: p.postedById,
      upvotes: p.upvotes,
      createdAt: p.createdAt,
      updatedAt: p.updatedAt ?? p.createdAt,
    };
    await tx.post.upsert({ where: { id: p.id }, create: { id: p.id, ...values }, update: values });
    step();
  }
  for (const c of data.comments) {
    const updatedAt = c.updatedAt ?? c.createdAt;
    const values = {
      postId: c.postId,
      postedById: c.postedById,
      commentDescription: c.commentDescription,
      pinned: c.pinned,
      pinnedAt: c.pinned ? (c.pinnedAt ?? updatedAt) : null,
      createdAt: c.createdAt,
      updatedAt,
    };
    await tx.comment.upsert({ where: { id: c.id }, create: { id: c.id, ...values }, update: values });
    step();
  }
  for (const c of data.changelogs) {
    const updatedAt = c.updatedAt ?? c.createdAt;
    const publishedAt = c.status === "Published" ? (c.publishedAt ?? null) : null;
    const values = {
      title: c.title,
      content: c.content,
      searchText: searchTextOf(c.title, c.content),
      status: c.status,
      publishedAt,
      sortAt: publishedAt ?? updatedAt,
      createdAt: c.createdAt,
      updatedAt,
    };
    await tx.changelog.upsert({ where: { id: c.id }, create: { id: c.id, ...values }, update: values });
    const labels = new Map<string, string>();
    for (const name of c.labels) if (!labels.has(fold(name))) labels.set(fold(name), name);
    await tx.changelogLabel.deleteMany({ where: { changelogId: c.id } });
    if (labels.size) {
      await tx.changelogLabel.createMany({
        data: [...labels].map(([nameKey, name]) => ({ changelogId: c.id, name, nameKey })),
      });
    }
    step();
  }

  // commentCount is derived: recount every post this file touched.
  const touched = [...new Set([...data.posts.map((p) => p.id), ...data.comments.map((c) => c.postId)])];
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
  await database.$transaction(
    async (tx) => {
      // The event first: on SQLite a transaction whose first statement writes takes the write
      // lock at once, waiting for another writer in the busy handler. One that reads first (an
      // upsert does) holds a snapshot, and fails at its first write if another connection (the
      // server recording a key's use) has committed since: SQLITE_BUSY_SNAPSHOT, no wait.
      await recordEvent(tx, {
        action: "import.applied",
        resourceType: "import",
        resourceId: options.source ?? null,
        changes: { ...counts },
        actor: options.actor ?? cliActor(),
      });
      await writeAll(tx, data, options.progress ?? (() => {}));
    },
    { timeout: 24 * 3_600_000, maxWait: 60_000 },
  );
  return counts;
}
