import { Prisma, read } from "../lib/db.ts";
import { rowType } from "../lib/rows.ts";
const q = Prisma.sql`EXPLAIN ANALYZE SELECT t."id" FROM "Post" t WHERE (t."createdAt", t."id") < (${new Date("2025-06-01T00:00:00Z")}, ${"demo_post_9"}) ORDER BY t."createdAt" DESC, t."id" DESC LIMIT 21 OFFSET 500`;
const rows = await read(q, rowType<Record<string, string>>({}));
for (const r of rows) console.log(Object.values(r)[0]);
const q2 = Prisma.sql`EXPLAIN ANALYZE SELECT count(*) FROM (SELECT 1 FROM "Post" t WHERE t."searchText" LIKE ${"%dashboard%"} LIMIT 10001) x`;
for (const r of await read(q2, rowType<Record<string, string>>({}))) console.log(Object.values(r)[0]);
process.exit(0);
