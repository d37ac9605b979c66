import Database from "better-sqlite3";
const db = new Database("/work/main/bench/.data/sqlite-1000000.db", { readonly: true });
const t = (label, sql, ...args) => { const s = performance.now(); const r = db.prepare(sql).all(...args); console.log(label, (performance.now() - s).toFixed(1), "ms", JSON.stringify(r).slice(0, 80)); };
for (const w of ["widget", "okta", "dashboard", "137"]) {
t(`fts-driven board ${w}`, `SELECT count(*) c FROM (SELECT 1 FROM PostSearch s CROSS JOIN Post t ON t.seq = s.rowid WHERE s.PostSearch MATCH ? AND t.boardId = 'demo_board_2' LIMIT 10001)`, `"${w}"`);
t(`fts-driven board+status ${w}`, `SELECT count(*) c FROM (SELECT 1 FROM PostSearch s CROSS JOIN Post t ON t.seq = s.rowid WHERE s.PostSearch MATCH ? AND t.boardId = 'demo_board_2' AND t.statusId='demo_status_3' LIMIT 10001)`, `"${w}"`);
t(`fts full count ${w}`, `SELECT count(*) c FROM PostSearch s WHERE s.PostSearch MATCH ?`, `"${w}"`);
}
t("keyset seek", `SELECT id FROM Post t WHERE (t.createdAt, t.id) < ('2025-06-01T00:00:00.000+00:00','z') ORDER BY createdAt DESC, id DESC LIMIT 20 OFFSET 500`);
console.log(db.prepare(`EXPLAIN QUERY PLAN SELECT id FROM Post t WHERE (t.createdAt, t.id) < (?, ?) ORDER BY createdAt DESC, id DESC LIMIT 20 OFFSET 500`).all("a","b"));
console.log(db.prepare(`EXPLAIN QUERY PLAN SELECT id FROM Post t WHERE t.boardId=? AND (t.upvotes, t.createdAt, t.id) < (?, ?, ?) ORDER BY upvotes DESC, createdAt DESC, id DESC LIMIT 20 OFFSET 500`).all("a",1,"b","c"));
t("checkpoint build latest", `SELECT createdAt, id FROM (SELECT createdAt, id, row_number() OVER (ORDER BY createdAt DESC, id DESC) rn FROM Post t) WHERE rn % 1000 = 0`);
t("checkpoint build top board", `SELECT upvotes, createdAt, id FROM (SELECT upvotes, createdAt, id, row_number() OVER (ORDER BY upvotes DESC, createdAt DESC, id DESC) rn FROM Post t WHERE boardId='demo_board_3') WHERE rn % 1000 = 0`);
t("checkpoint build status top", `SELECT upvotes, createdAt, id FROM (SELECT upvotes, createdAt, id, row_number() OVER (ORDER BY upvotes DESC, createdAt DESC, id DESC) rn FROM Post t WHERE statusId='demo_status_3') WHERE rn % 1000 = 0`);
t("short xj fts content scan", `SELECT count(*) FROM (SELECT 1 FROM Post WHERE instr(searchText,'xj')>0 LIMIT 10001)`);
