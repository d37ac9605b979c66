import "server-only";
import { type Column, COLUMNS, insertRows, mergeSearchIndexes, type Row } from "../bulk";
import { db, type Tx } from "../db";
import { dialect } from "../dialect";
import { fold, searchTextOf, userSearchTextOf } from "../search";
import type { DatasetCounts } from "../import/run";
import {
  AREAS,
  BOARDS,
  changelogContent,
  changelogTitle,
  FEATURES,
  FIRST,
  LABELS,
  LAST,
  random,
  REPLIES,
  SENTENCES,
  STATUSES,
  TEAM_SIZES,
  TITLES,
} from "./vocabulary";

// `feedback seed`: deterministic demo data that reads like a real product's feedback. The same
// --posts and --seed always give the same rows. Every id starts with "demo_", and a new seed
// first removes the previous demo rows, so seeding twice leaves one copy.

export interface SeedOptions {
  posts: number;
  seed: number;
  progress?: (message: string) => void;
}

const pick = <T>(rand: () => number, items: readonly T[]): T => items[Math.floor(rand() * items.length)] as T;
const pad = (n: number) => String(n).padStart(7, "0");

function fill(template: string, rand: () => number): string {
  const feature = pick(rand, FEATURES);
  return template
    .replace("{f}", feature)
    .replace("{F}", feature[0]?.toUpperCase() + feature.slice(1))
    .replace("{a}", pick(rand, AREAS))
    .replace("{n}", String(TEAM_SIZES.min + Math.floor(rand() * TEAM_SIZES.count)));
}

/** The seed's posts come with their comment counts. */
const POST_COLUMNS: Column[] = [...COLUMNS.post, ["commentCount", "int"]];

/** Posts written per transaction: big enough to amortise the commit, small enough to show progress. */
const POSTS_PER_TRANSACTION = 25_000;

export async function seed({ posts, seed: seedValue, progress = () => {} }: SeedOptions): Promise<DatasetCounts> {
  const rand = random(seedValue);
  const userCount = Math.max(10, Math.min(50_000, Math.ceil(posts / 20)));
  const changelogCount = Math.max(5, Math.ceil(posts / 20));
  // A fixed "now", so the same seed gives the same times whenever it runs.
  const end = Date.UTC(2026, 9, 1);
  const span = 2 * 365 * 86_400_000;
  const transaction = <T>(work: (tx: Tx) => Promise<T>) => db.$transaction(work, { timeout: 3_600_000, maxWait: 60_000 });

  progress("removing earlier demo data");
  await db.$transaction([
    db.comment.deleteMany({ where: { id: { startsWith: "demo_" } } }),
    db.post.deleteMany({ where: { id: { startsWith: "demo_" } } }),
    db.changelog.deleteMany({ where: { id: { startsWith: "demo_" } } }),
    db.user.deleteMany({ where: { id: { startsWith: "demo_" } } }),
    db.postStatus.deleteMany({ where: { id: { startsWith: "demo_" } } }),
    db.board.deleteMany({ where: { id: { startsWith: "demo_" } } }),
  ]);

  await db.board.createMany({ data: BOARDS.map((name, i) => ({ id: `demo_board_${i + 1}`, name })) });
  await db.postStatus.createMany({
    data: STATUSES.map(([name, color], i) => ({ id: `demo_status_${i + 1}`, name, color, position: i })),
  });
  const users = [];
  for (let i = 0; i < userCount; i++) {
    const name = `${pick(rand, FIRST)} ${pick(rand, LAST)}`;
    const email = `user${i + 1}@example.com`;
    users.push({ id: `demo_user_${pad(i + 1)}`, name, email, searchText: userSearchTextOf(name) });
  }
  for (let start = 0; start < users.length; start += 5000) await db.user.createMany({ data: users.slice(start, start + 5000) });
  progress(`users ${userCount}`);

  let commentTotal = 0;
  for (let start = 0; start < posts; start += POSTS_PER_TRANSACTION) {
    const postRows: Row[] = [];
    const commentRows: Row[] = [];
    for (let i = start; i < Math.min(posts, start + POSTS_PER_TRANSACTION); i++) {
      const id = `demo_post_${pad(i + 1)}`;
      const createdAt = new Date(end - span + Math.floor(((i + rand()) / posts) * span));
      const title = fill(pick(rand, TITLES), rand);
      const content = Array.from({ length: 1 + Math.floor(rand() * 3) }, () => fill(pick(rand, SENTENCES), rand)).join(" ");
      const statusIndex = Math.floor(rand() * (STATUSES.length + 1));
      // 0 to 4 comments, two on average: 1,000,000 posts come with about 2,000,000 comments.
      const comments = Math.floor(rand() * 5);
      const upvotes = Math.floor(rand() ** 3 * 500);
      let last = createdAt.getTime();
      for (let c = 0; c < comments; c++) {
        last += Math.floor(rand() * 3 * 86_400_000);
        const at = new Date(Math.min(last, end));
        const pinned = c === 0 && rand() < 0.15;
        commentRows.push([
          `demo_comment_${pad(i + 1)}_${c + 1}`,
          id,
          `demo_user_${pad(1 + Math.floor(rand() * userCount))}`,
          pick(rand, REPLIES),
          pinned,
          pinned ? at : null,
          at,
          at,
        ]);
      }
      postRows.push([
        id,
        title,
        content,
        searchTextOf(title, content),
        `demo_board_${1 + Math.floor(rand() * BOARDS.length)}`,
        statusIndex < STATUSES.length ? `demo_status_${statusIndex + 1}` : null,
        `demo_user_${pad(1 + Math.floor(rand() * userCount))}`,
        upvotes,
        createdAt,
        createdAt,
        comments,
      ]);
    }
    await transaction(async (tx) => {
      await insertRows(tx, "Post", POST_COLUMNS, postRows);
      await insertRows(tx, "Comment", COLUMNS.comment, commentRows);
    });
    commentTotal += commentRows.length;
    progress(`posts ${Math.min(posts, start + POSTS_PER_TRANSACTION)}/${posts}, comments ${commentTotal}`);
  }

  const changelogRows: Row[] = [];
  const labelRows: Row[] = [];
  for (let i = 0; i < changelogCount; i++) {
    const id = `demo_changelog_${pad(i + 1)}`;
    const createdAt = new Date(end - span + Math.floor(((i + rand()) / changelogCount) * span));
    const draft = rand() < 0.15;
    const publishedAt = draft ? null : new Date(createdAt.getTime() + Math.floor(rand() * 86_400_000));
    const updatedAt = publishedAt ?? createdAt;
    const feature = pick(rand, FEATURES);
    const title = changelogTitle(feature, draft);
    const content = changelogContent(feature, pick(rand, AREAS), draft);
    changelogRows.push([id, title, content, searchTextOf(title, content), draft ? "Draft" : "Published", publishedAt, updatedAt, createdAt, updatedAt]);
    const chosen = new Set([pick(rand, LABELS), ...(rand() < 0.4 ? [pick(rand, LABELS)] : [])]);
    for (const name of chosen) labelRows.push([id, name, fold(name)]);
  }
  await transaction(async (tx) => {
    await insertRows(tx, "Changelog", COLUMNS.changelog, changelogRows);
    await insertRows(tx, "ChangelogLabel", COLUMNS.changelogLabel, labelRows);
  });
  progress(`changelogs ${changelogCount}`);

  await mergeSearchIndexes(db, ["Post", "Changelog"], progress);
  // Fresh statistics, so the query planner knows the tables' new sizes and spreads.
  progress(dialect.analyze.progress);
  await db.$executeRawUnsafe(dialect.analyze.statement);

  return {
    boards: BOARDS.length,
    statuses: STATUSES.length,
    users: userCount,
    posts,
    comments: commentTotal,
    changelogs: changelogCount,
  };
}
