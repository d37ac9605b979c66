import "server-only";
import { once } from "node:events";
import type { Writable } from "node:stream";
import { type Db, db, type Tx } from "../db";
import { dialect } from "../dialect";
import type { DatasetCounts } from "../import/run";

// `feedback export`: the whole dataset in the import format (version 1), so `feedback import`
// of the file into an empty database gives the same API answers. Rows are read in chunks by id
// and written as they come, one record per line, waiting whenever the stream is full: memory
// stays bounded however large the database is. Everything is read in one read transaction, so
// the file is a single moment's data even while the server keeps writing.

const CHUNK = 1000;
const PROGRESS_EVERY = 50_000;

type Kind = keyof DatasetCounts;
type Progress = (kind: Kind, done: number, total: number) => void;

const iso = (value: Date) => value.toISOString();
const isoOrNull = (value: Date | null) => (value ? value.toISOString() : null);

/** The next chunk in id order after the last id read (a keyset page). */
const chunkAfter = (after: string | undefined) => ({
  where: after ? { id: { gt: after } } : {},
  orderBy: { id: "asc" as const },
  take: CHUNK,
});

/** Each kind's records, chunk by chunk in id order, shaped as the import format has them. */
const readers: Record<Kind, (tx: Tx, after: string | undefined) => Promise<{ id: string }[]>> = {
  boards: (tx, after) =>
    tx.board.findMany({ ...chunkAfter(after), select: { id: true, name: true } }),
  // A status's position is its place in the workflow; it is written out so a round trip keeps it.
  statuses: (tx, after) =>
    tx.postStatus.findMany({
      ...chunkAfter(after),
      select: { id: true, name: true, color: true, position: true },
    }),
  users: (tx, after) =>
    tx.user.findMany({
      ...chunkAfter(after),
      select: { id: true, name: true, email: true },
    }),
  posts: async (tx, after) => {
    const rows = await tx.post.findMany({
      ...chunkAfter(after),
      select: {
        id: true,
        title: true,
        content: true,
        boardId: true,
        statusId: true,
        postedById: true,
        upvotes: true,
        createdAt: true,
        updatedAt: true,
      },
    });
    return rows.map((p) => ({ ...p, createdAt: iso(p.createdAt), updatedAt: iso(p.updatedAt) }));
  },
  comments: async (tx, after) => {
    const rows = await tx.comment.findMany({
      ...chunkAfter(after),
      select: {
        id: true,
        postId: true,
        postedById: true,
        commentDescription: true,
        pinned: true,
        pinnedAt: true,
        createdAt: true,
        updatedAt: true,
      },
    });
    return rows.map((c) => ({
      ...c,
      // Import refuses pinnedAt on an unpinned comment, and the app never leaves one behind.
      pinnedAt: c.pinned ? isoOrNull(c.pinnedAt) : null,
      createdAt: iso(c.createdAt),
      updatedAt: iso(c.updatedAt),
    }));
  },
  changelogs: async (tx, after) => {
    const rows = await tx.changelog.findMany({
      ...chunkAfter(after),
      select: {
        id: true,
        title: true,
        content: true,
        status: true,
        publishedAt: true,
        createdAt: true,
        updatedAt: true,
        labels: { select: { name: true }, orderBy: { nameKey: "asc" } },
      },
    });
    return rows.map((c) => ({
      id: c.id,
      title: c.title,
      content: c.content,
      status: c.status,
      labels: c.labels.map((l) => l.name),
      publishedAt: isoOrNull(c.publishedAt),
      createdAt: iso(c.createdAt),
      updatedAt: iso(c.updatedAt),
    }));
  },
};

const KINDS = Object.keys(readers) as Kind[];

async function countAll(tx: Tx): Promise<DatasetCounts> {
  return {
    boards: await tx.board.count(),
    statuses: await tx.postStatus.count(),
    users: await tx.user.count(),
    posts: await tx.post.count(),
    comments: await tx.comment.count(),
    changelogs: await tx.changelog.count(),
  };
}

/** Writes text, and waits for the stream to drain when its buffer is full. */
export async function write(out: Writable, text: string): Promise<void> {
  // A failed stream (a full disk, a closed pipe) never drains: stop with its error instead.
  if (out.errored) throw out.errored;
  if (!out.write(text)) await once(out, "drain");
}

async function writeAll(tx: Tx, out: Writable, progress: Progress): Promise<DatasetCounts> {
  const totals = await countAll(tx);
  const written: DatasetCounts = { boards: 0, statuses: 0, users: 0, posts: 0, comments: 0, changelogs: 0 };
  await write(out, '{"version":1');
  for (const kind of KINDS) {
    await write(out, `,\n"${kind}":[`);
    let after: string | undefined;
    let reported = 0;
    for (;;) {
      const rows = await readers[kind](tx, after);
      if (!rows.length) break;
      const lines = rows.map((row) => JSON.stringify(row));
      await write(out, `${written[kind] ? "," : ""}\n${lines.join(",\n")}`);
      written[kind] += rows.length;
      after = rows[rows.length - 1]?.id;
      if (written[kind] - reported >= PROGRESS_EVERY) {
        reported = written[kind];
        progress(kind, written[kind], totals[kind]);
      }
    }
    if (written[kind] !== reported) progress(kind, written[kind], totals[kind]);
    await write(out, `${written[kind] ? "\n" : ""}]`);
  }
  await write(out, "}\n");
  return written;
}

/** Writes the whole dataset to `out` (which the caller ends) and returns how many of each kind. */
export async function runExport(out: Writable, progress: Progress = () => {}, database: Db = db): Promise<DatasetCounts> {
  // The error is read from out.errored at the next write; without a listener it would crash.
  const ignore = () => {};
  out.on("error", ignore);
  try {
    return await database.$transaction((tx) => writeAll(tx, out, progress), {
      ...dialect.snapshot,
      timeout: 24 * 3_600_000,
      maxWait: 60_000,
    });
  } finally {
    out.off("error", ignore);
  }
}
