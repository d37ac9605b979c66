-- Written by hand: the triggers that join a statement's old rows to its new ones (the
-- words_by_statement and word_rows_by_statement migrations) plan that join each time they run.
-- PL/pgSQL plans a statement once per connection and keeps the plan, and a statement on
-- transition tables is planned for the size they had the first time. A connection whose first
-- update changed no post or one (an import's upsert fires the update triggers even when
-- nothing conflicted) kept a nested loop, and every later update on it compared each old row
-- with each new one: 5,000 posts, 25 million comparisons in each of the two triggers, 9.0 s
-- where a fresh plan took 2.5 s (at a million posts); 10,050 imported changelogs ran past the
-- statement timeout when their labels' trigger updated them all. EXECUTE plans the statement
-- for the rows it is given, a hash or merge join, for a fraction of a millisecond.
CREATE OR REPLACE FUNCTION "remember_updated_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE 'INSERT INTO "SearchWord" ("table", "word")
    SELECT DISTINCT $1, w
    FROM "before" o JOIN "after" n ON n."id" = o."id", unnest("search_words"(n."searchText")) AS w
    WHERE o."searchText" IS DISTINCT FROM n."searchText"
    ORDER BY 2
    ON CONFLICT DO NOTHING' USING TG_ARGV[0];
  RETURN NULL;
END $$;

CREATE OR REPLACE FUNCTION "count_updated_post_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE 'WITH moved AS (
    SELECT o."searchText" AS "oldText", o."boardId" AS "oldBoard", COALESCE(o."statusId", '''') AS "oldStatus",
           n."searchText" AS "newText", n."boardId" AS "newBoard", COALESCE(n."statusId", '''') AS "newStatus"
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
    SELECT ''Post'', w, "boardId", "statusId", sum(n)
    FROM changes
    GROUP BY 2, 3, 4
    HAVING sum(n) <> 0
    ORDER BY 2, 3, 4
    ON CONFLICT ("table", "word", "boardId", "statusId") DO UPDATE SET "rows" = "SearchWordRows"."rows" + EXCLUDED."rows"';
  RETURN NULL;
END $$;
