-- Written by hand: the counts the word_rows migration keeps follow changed posts a statement at
-- a time, as they follow inserted and deleted ones. Its row-level trigger ran two statements
-- for each changed post (about 1.3 ms a post: an import that changed 3,200 posts spent 4 s in
-- it and ran past the statement timeout when its posts were also locked a while), and wrote
-- each post's keys on its own, so two writers changing the same posts in different orders could
-- each hold a key the other waited for. Now each key's change is summed once per statement and
-- written in key order.
-- A post is followed by its id, which no write of this app changes. Statements that change no
-- text, board or status (an import's recount of comments) join the old rows to the new and
-- compute no words.
DROP TRIGGER "Post_word_rows_update" ON "Post";
DROP FUNCTION "count_updated_post_words"();

CREATE FUNCTION "count_updated_post_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  WITH moved AS (
    SELECT o."searchText" AS "oldText", o."boardId" AS "oldBoard", COALESCE(o."statusId", '') AS "oldStatus",
           n."searchText" AS "newText", n."boardId" AS "newBoard", COALESCE(n."statusId", '') AS "newStatus"
    FROM "before" o JOIN "after" n ON n."id" = o."id"
    WHERE o."searchText" IS DISTINCT FROM n."searchText" OR o."boardId" IS DISTINCT FROM n."boardId"
      OR o."statusId" IS DISTINCT FROM n."statusId"
  ),
  changes AS (
    SELECT words.w, m."oldBoard" AS "boardId", m."oldStatus" AS "statusId", -1 AS n
      FROM moved m, LATERAL (SELECT DISTINCT w FROM unnest("search_words"(m."oldText")) AS w) AS words
    UNION ALL
    SELECT words.w, m."newBoard", m."newStatus", 1
      FROM moved m, LATERAL (SELECT DISTINCT w FROM unnest("search_words"(m."newText")) AS w) AS words
  )
  INSERT INTO "SearchWordRows" ("table", "word", "boardId", "statusId", "rows")
    SELECT 'Post', w, "boardId", "statusId", sum(n)
    FROM changes
    GROUP BY 2, 3, 4
    HAVING sum(n) <> 0
    ORDER BY 2, 3, 4
    ON CONFLICT ("table", "word", "boardId", "statusId") DO UPDATE SET "rows" = "SearchWordRows"."rows" + EXCLUDED."rows";
  RETURN NULL;
END $$;

CREATE TRIGGER "Post_word_rows_update" AFTER UPDATE ON "Post"
  REFERENCING OLD TABLE AS "before" NEW TABLE AS "after" FOR EACH STATEMENT EXECUTE FUNCTION "count_updated_post_words"();
