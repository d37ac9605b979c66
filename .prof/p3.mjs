import Database from "better-sqlite3";
const db = new Database("/work/main/bench/.data/sqlite-1000000.db", { readonly: true });
const t = (label, sql, ...args) => { console.log(db.prepare("EXPLAIN QUERY PLAN " + sql).all(...args).map(r=>r.detail).join(" / ")); const s = performance.now(); const r = db.prepare(sql).all(...args); console.log(label, (performance.now() - s).toFixed(1), "ms", JSON.stringify(r).slice(0, 80)); };
t("in-subquery board widget", `SELECT count(*) c FROM (SELECT 1 FROM Post t WHERE t.boardId='demo_board_2' AND t.seq IN (SELECT rowid FROM PostSearch WHERE PostSearch MATCH ?) LIMIT 10001)`, `"widget"`);
t("in-subquery board+status widget", `SELECT count(*) c FROM (SELECT 1 FROM Post t WHERE t.boardId='demo_board_2' AND t.statusId='demo_status_3' AND t.seq IN (SELECT rowid FROM PostSearch WHERE PostSearch MATCH ?) LIMIT 10001)`, `"widget"`);
t("in-subquery indexed-by board+status widget", `SELECT count(*) c FROM (SELECT 1 FROM Post t INDEXED BY Post_boardId_statusId_createdAt_id_idx WHERE t.boardId='demo_board_2' AND t.statusId='demo_status_3' AND t.seq IN (SELECT rowid FROM PostSearch WHERE PostSearch MATCH ?) LIMIT 10001)`, `"widget"`);
t("in-subquery status only widget", `SELECT count(*) c FROM (SELECT 1 FROM Post t WHERE t.statusId='demo_status_3' AND t.seq IN (SELECT rowid FROM PostSearch WHERE PostSearch MATCH ?) LIMIT 10001)`, `"widget"`);
