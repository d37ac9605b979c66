// The benchmark's baseline: a bare node:http server with the same database driver as the app
// (better-sqlite3 or pg) and hand-written SQL, answering the requests the benchmark makes with
// the same JSON. It has no framework, no Prisma, no validation library: what is left is the
// database's own cost, so `app / baseline` shows what everything else costs.
//
//   DATABASE_URL=file:... BASELINE_PORT=3301 npx tsx bench/baseline-server.ts
//
// Configuration comes from the command line's environment on purpose: this is a bench tool,
// not part of the app, and it must not import the app's modules.
import { createHash } from "node:crypto";
import http from "node:http";
import Database from "better-sqlite3";
import pg from "pg";

const url = process.env.DATABASE_URL ?? "";
const port = Number(process.env.BASELINE_PORT ?? 3301);
const poolSize = Number(process.env.DATABASE_POOL_SIZE ?? 10);

type Value = string | number | null;
type Rows = Record<string, unknown>[];

interface Driver {
  engine: "sqlite" | "postgres";
  all(sql: string, params: Value[]): Promise<Rows>;
  /** Runs `work` in a transaction; `run` inside it uses the transaction's connection. */
  transaction<T>(work: (run: (sql: string, params: Value[]) => Promise<Rows>) => Promise<T>): Promise<T>;
}

function sqliteDriver(file: string): Driver {
  const database = new Database(file);
  database.pragma("busy_timeout = 5000");
  const statements = new Map<string, Database.Statement>();
  const prepare = (sql: string) => {
    let statement = statements.get(sql);
    if (!statement) {
      statement = database.prepare(sql);
      statements.set(sql, statement);
    }
    return statement;
  };
  const all = async (sql: string, params: Value[]): Promise<Rows> => {
    const statement = prepare(sql);
    if (statement.reader) return statement.all(...params) as Rows;
    statement.run(...params);
    return [];
  };
  return {
    engine: "sqlite",
    all,
    transaction: async (work) => {
      // better-sqlite3 is synchronous and `work` awaits nothing else, so nothing interleaves.
      database.exec("BEGIN IMMEDIATE");
      try {
        const result = await work(all);
        database.exec("COMMIT");
        return result;
      } catch (error) {
        database.exec("ROLLBACK");
        throw error;
      }
    },
  };
}

function postgresDriver(connectionString: string): Driver {
  const pool = new pg.Pool({ connectionString, max: poolSize });
  // Timestamps without time zone hold UTC, as Prisma writes them.
  pg.types.setTypeParser(1114, (text) => `${text.replace(" ", "T")}Z`);
  const numbered = (sql: string) => {
    let n = 0;
    return sql.replace(/\?/g, () => `$${++n}`);
  };
  return {
    engine: "postgres",
    all: async (sql, params) => (await pool.query(numbered(sql), params)).rows,
    transaction: async (work) => {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await work(async (sql, params) => (await client.query(numbered(sql), params)).rows);
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK");
        throw error;
      } finally {
        client.release();
      }
    },
  };
}

const db: Driver = url.startsWith("file:") ? sqliteDriver(url.slice(5).split("?")[0] ?? "") : postgresDriver(url);

const fold = (text: string) => text.normalize("NFC").toUpperCase().toLowerCase().replace(/ς/g, "σ");
const iso = (value: unknown) => new Date(value as string).toISOString();
const isoOrNull = (value: unknown) => (value === null ? null : iso(value));

function send(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "Content-Type": "application/json; charset=utf-8", "Content-Length": Buffer.byteLength(text) });
  res.end(text);
}

async function authorized(req: http.IncomingMessage): Promise<boolean> {
  const match = /^Bearer +(\S+)$/i.exec(req.headers.authorization ?? "");
  if (!match?.[1]) return false;
  const hash = createHash("sha256").update(match[1]).digest("hex");
  const rows = await db.all(`SELECT "id", "scopes", "revokedAt" FROM "ApiKey" WHERE "hash" = ?`, [hash]);
  return rows.length === 1 && rows[0]?.revokedAt === null;
}

/** The search condition: every term, as a substring of the folded text. */
function searchWhere(table: "Post" | "Changelog", search: string | null, where: string[], params: Value[]): void {
  const terms = [...new Set(fold(search ?? "").split(/\s+/u).filter(Boolean))];
  if (!terms.length) return;
  if (db.engine === "postgres") {
    for (const t of terms) {
      where.push(`t."searchText" LIKE ? ESCAPE '\\'`);
      params.push(`%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`);
    }
    return;
  }
  const long = terms.filter((t) => [...t].length >= 3);
  if (long.length) {
    where.push(`t."seq" IN (SELECT rowid FROM "${table}Search" WHERE "${table}Search" MATCH ?)`);
    params.push(long.map((t) => `"${t.replace(/"/g, '""')}"`).join(" AND "));
  }
  for (const t of terms) {
    where.push(`instr(t."searchText", ?) > 0`);
    params.push(t);
  }
}

function pageOf(query: URLSearchParams) {
  const limit = Number(query.get("limit") ?? 10);
  const page = Number(query.get("page") ?? 1);
  return { limit, page, offset: (page - 1) * limit };
}

function pagination(page: number, limit: number, total: number) {
  const totalPages = Math.ceil(total / limit);
  return { page, limit, total, totalPages, hasNextPage: page < totalPages };
}

async function listPosts(query: URLSearchParams) {
  const where: string[] = [];
  const params: Value[] = [];
  for (const key of ["boardId", "statusId", "postedById"]) {
    const value = query.get(key);
    if (value) {
      where.push(`t."${key}" = ?`);
      params.push(value);
    }
  }
  const plainFilters = where.length;
  searchWhere("Post", query.get("search") ?? query.get("q"), where, params);
  const clause = where.length ? `WHERE ${where.join(" AND ")}` : "";
  const order =
    query.get("sortBy") === "top"
      ? `"upvotes" DESC, "createdAt" DESC, "id" DESC`
      : `"createdAt" DESC, "id" DESC`;
  const { limit, page, offset } = pageOf(query);
  // A search on its own, of terms of three characters or more, is counted on the trigram index
  // alone (a trigram phrase is an exact substring test) - no caching of totals here.
  const terms = [...new Set(fold(query.get("search") ?? query.get("q") ?? "").split(/\s+/u).filter(Boolean))];
  const indexOnly = db.engine === "sqlite" && plainFilters === 0 && terms.length > 0 && terms.every((t) => [...t].length >= 3);
  const [count, rows] = await Promise.all([
    indexOnly
      ? db.all(`SELECT count(*) AS "total" FROM "PostSearch" WHERE "PostSearch" MATCH ?`, [params[0] as string])
      : db.all(`SELECT count(*) AS "total" FROM "Post" t ${clause}`, params),
    db.all(
      `SELECT p."id", p."title", p."content", p."boardId", b."name" AS "boardName", p."statusId",
              s."name" AS "statusName", s."color" AS "statusColor", p."postedById", u."name" AS "authorName",
              p."upvotes", p."commentCount", p."createdAt", p."updatedAt"
       FROM (SELECT t."id" FROM "Post" t ${clause} ORDER BY ${order.replace(/"(\w+)"/g, 't."$1"')} LIMIT ? OFFSET ?) page
       CROSS JOIN "Post" p
       JOIN "Board" b ON b."id" = p."boardId"
       LEFT JOIN "PostStatus" s ON s."id" = p."statusId"
       JOIN "User" u ON u."id" = p."postedById"
       WHERE p."id" = page."id"
       ORDER BY ${order.replace(/"(\w+)"/g, 'p."$1"')}`,
      [...params, limit, offset],
    ),
  ]);
  const total = Number(count[0]?.total ?? 0);
  return {
    data: rows.map((r) => ({
      id: r.id,
      title: r.title,
      content: r.content,
      boardId: r.boardId,
      board: { id: r.boardId, name: r.boardName },
      statusId: r.statusId,
      status: r.statusId === null ? null : { id: r.statusId, name: r.statusName, color: r.statusColor },
      postedById: r.postedById,
      postedBy: { id: r.postedById, name: r.authorName },
      upvotes: Number(r.upvotes),
      commentCount: Number(r.commentCount),
      createdAt: iso(r.createdAt),
      updatedAt: iso(r.updatedAt),
    })),
    pagination: pagination(page, limit, total),
  };
}

async function changelogRecords(rows: Rows) {
  const ids = rows.map((r) => r.id as string);
  const labels = new Map<string, string[]>(ids.map((id) => [id, []]));
  if (ids.length) {
    const found = await db.all(
      `SELECT "changelogId", "name" FROM "ChangelogLabel" WHERE "changelogId" IN (${ids.map(() => "?").join(", ")})`,
      ids,
    );
    for (const l of found) labels.get(l.changelogId as string)?.push(l.name as string);
  }
  return rows.map((r) => ({
    id: r.id,
    title: r.title,
    content: r.content,
    status: r.status,
    labels: (labels.get(r.id as string) ?? []).sort((a, b) => a.localeCompare(b, "en", { sensitivity: "base" })),
    publishedAt: isoOrNull(r.publishedAt),
    createdAt: iso(r.createdAt),
    updatedAt: iso(r.updatedAt),
  }));
}

const CHANGELOG_COLUMNS = `t."id", t."title", t."content", t."status", t."publishedAt", t."createdAt", t."updatedAt"`;

async function listChangelogs(query: URLSearchParams) {
  const where: string[] = [];
  const params: Value[] = [];
  const status = query.get("status");
  if (status) {
    where.push(`t."status" = ?`);
    params.push(status.toLowerCase() === "draft" ? "Draft" : "Published");
  }
  const labels = [...new Set(query.getAll("labels").flatMap((l) => l.split(",")).map((l) => fold(l.trim())).filter(Boolean))];
  if (labels.length) {
    where.push(`EXISTS (SELECT 1 FROM "ChangelogLabel" l WHERE l."changelogId" = t."id" AND l."nameKey" IN (${labels.map(() => "?").join(", ")})${db.engine === "postgres" ? " OFFSET 0" : ""})`);
    params.push(...labels);
  }
  searchWhere("Changelog", query.get("search") ?? query.get("q"), where, params);
  const clause = where.length ? `WHERE ${where.join(" AND ")}` : "";
  const { limit, page, offset } = pageOf(query);
  const [count, rows] = await Promise.all([
    db.all(`SELECT count(*) AS "total" FROM "Changelog" t ${clause}`, params),
    db.all(
      `SELECT ${CHANGELOG_COLUMNS} FROM "Changelog" t ${clause}
       ORDER BY t."status" ASC, t."sortAt" DESC, t."id" DESC LIMIT ? OFFSET ?`,
      [...params, limit, offset],
    ),
  ]);
  return { data: await changelogRecords(rows), pagination: pagination(page, limit, Number(count[0]?.total ?? 0)) };
}

async function getChangelog(id: string) {
  const rows = await db.all(`SELECT ${CHANGELOG_COLUMNS} FROM "Changelog" t WHERE t."id" = ?`, [id]);
  const [record] = await changelogRecords(rows);
  return record ? { data: record } : null;
}

async function readForm(req: http.IncomingMessage): Promise<URLSearchParams> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return new URLSearchParams(Buffer.concat(chunks).toString("utf8"));
}

async function updateComment(id: string, form: URLSearchParams) {
  const description = form.get("commentDescription")?.trim();
  const pin = form.get("pinComment");
  const pinned = pin === null ? null : pin.toLowerCase() === "true";
  const stamp = (ms: number) => (db.engine === "sqlite" ? new Date(ms).toISOString().replace("Z", "+00:00") : new Date(ms).toISOString());
  const columns = `"id", "postId", "commentDescription", "pinned", "pinnedAt", "postedById", "createdAt", "updatedAt"`;
  const row = await db.transaction(async (run) => {
    const [current] = await run(`SELECT "pinned", "updatedAt" FROM "Comment" WHERE "id" = ?`, [id]);
    if (!current) return null;
    const now = Math.max(Date.now(), new Date(current.updatedAt as string).getTime() + 1);
    const sets = [`"updatedAt" = ?`];
    const params: Value[] = [stamp(now)];
    if (description !== undefined) {
      sets.push(`"commentDescription" = ?`);
      params.push(description);
    }
    if (pinned !== null && pinned !== Boolean(current.pinned)) {
      sets.push(`"pinned" = ?`, `"pinnedAt" = ?`);
      params.push(db.engine === "sqlite" ? Number(pinned) : String(pinned), pinned ? stamp(now) : null);
    }
    await run(`UPDATE "Comment" SET ${sets.join(", ")} WHERE "id" = ?`, [...params, id]);
    const [updated] = await run(`SELECT ${columns} FROM "Comment" WHERE "id" = ?`, [id]);
    return updated ?? null;
  });
  if (!row) return null;
  return {
    data: {
      id: row.id,
      postId: row.postId,
      commentDescription: row.commentDescription,
      pinned: Boolean(row.pinned),
      pinnedAt: isoOrNull(row.pinnedAt),
      postedById: row.postedById,
      createdAt: iso(row.createdAt),
      updatedAt: iso(row.updatedAt),
    },
  };
}

const server = http.createServer(async (req, res) => {
  try {
    const { pathname, searchParams } = new URL(req.url ?? "/", "http://localhost");
    if (pathname === "/api/health") return send(res, 200, { status: "ok" });
    if (!(await authorized(req))) return send(res, 401, { error: { code: "unauthorized" } });
    let result: unknown = null;
    if (req.method === "GET" && pathname === "/api/v1/posts") result = await listPosts(searchParams);
    else if (req.method === "GET" && pathname === "/api/v1/changelogs") result = await listChangelogs(searchParams);
    else if (req.method === "GET" && pathname.startsWith("/api/v1/changelogs/")) {
      result = await getChangelog(decodeURIComponent(pathname.slice("/api/v1/changelogs/".length)));
    } else if (req.method === "PUT" && pathname.startsWith("/api/v1/comments/")) {
      result = await updateComment(decodeURIComponent(pathname.slice("/api/v1/comments/".length)), await readForm(req));
    }
    if (result === null) return send(res, 404, { error: { code: "not_found" } });
    send(res, 200, result);
  } catch (error) {
    console.error(error);
    send(res, 500, { error: { code: "internal_error" } });
  }
});

server.listen(port, "127.0.0.1", () => console.error(`baseline (${db.engine}) listening on 127.0.0.1:${port}`));
process.once("SIGTERM", () => server.close(() => process.exit(0)));
