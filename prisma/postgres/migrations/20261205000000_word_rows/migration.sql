-- Written by hand: how many posts hold each word, by board and status, kept by the writes
-- themselves, in their transaction (lib/vocabulary.ts, wordRows). A search of one term holds
-- exactly the rows of the words that contain it (the word_index migration), so these counts
-- settle its bounded count without reading the word index: the commonest word past the bound
-- makes the total the bound's, and a term inside one word only has that word's count. The word
-- index's count of a common word with a board read tens of thousands of index entries and
-- their rows' visibility (at a million posts under load, 138-184 ms a count, most of each
-- request's time); this is a few index entries. SQLite's word index lists its words' counts
-- itself (fts5vocab), so it needs no such table.
-- A post without a status counts under the status ''; no status has that id (the API ignores
-- an empty filter). A key whose posts are all gone keeps its row, at 0.
CREATE TABLE "SearchWordRows" (
    "table" TEXT NOT NULL,
    "word" TEXT NOT NULL,
    "boardId" TEXT NOT NULL,
    "statusId" TEXT NOT NULL,
    "rows" INTEGER NOT NULL,
    CONSTRAINT "SearchWordRows_pkey" PRIMARY KEY ("table", "word", "boardId", "statusId")
);

-- Inserted and deleted posts in statement-level triggers, each key's change summed once, so a
-- seed or an import of a million posts writes each key once; a changed post in a row-level one,
-- since PostgreSQL gives no transition table to a trigger on some columns only, and fires this
-- one only for a post whose text, board or status changed. Keys are written in their order, so
-- two writers meet on their first shared key instead of each holding one the other needs.
CREATE FUNCTION "count_inserted_post_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "SearchWordRows" ("table", "word", "boardId", "statusId", "rows")
    SELECT 'Post', words.w, p."boardId", COALESCE(p."statusId", ''), count(*)
    FROM "inserted" p, LATERAL (SELECT DISTINCT w FROM unnest("search_words"(p."searchText")) AS w) AS words
    GROUP BY 2, 3, 4
    ORDER BY 2, 3, 4
    ON CONFLICT ("table", "word", "boardId", "statusId") DO UPDATE SET "rows" = "SearchWordRows"."rows" + EXCLUDED."rows";
  RETURN NULL;
END $$;

CREATE FUNCTION "count_deleted_post_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "SearchWordRows" r SET "rows" = r."rows" - gone.n
    FROM (
      SELECT words.w, p."boardId", COALESCE(p."statusId", '') AS "statusId", count(*) AS n
      FROM "deleted" p, LATERAL (SELECT DISTINCT w FROM unnest("search_words"(p."searchText")) AS w) AS words
      GROUP BY 1, 2, 3
    ) gone
    WHERE r."table" = 'Post' AND r."word" = gone.w AND r."boardId" = gone."boardId" AND r."statusId" = gone."statusId";
  RETURN NULL;
END $$;

CREATE FUNCTION "count_updated_post_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "SearchWordRows" SET "rows" = "rows" - 1
    WHERE "table" = 'Post' AND "boardId" = OLD."boardId" AND "statusId" = COALESCE(OLD."statusId", '')
      AND "word" IN (SELECT unnest("search_words"(OLD."searchText")));
  INSERT INTO "SearchWordRows" ("table", "word", "boardId", "statusId", "rows")
    SELECT DISTINCT 'Post', w, NEW."boardId", COALESCE(NEW."statusId", ''), 1
    FROM unnest("search_words"(NEW."searchText")) AS w
    ORDER BY 2
    ON CONFLICT ("table", "word", "boardId", "statusId") DO UPDATE SET "rows" = "SearchWordRows"."rows" + 1;
  RETURN NULL;
END $$;

CREATE FUNCTION "forget_post_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "SearchWordRows" WHERE "table" = 'Post';
  RETURN NULL;
END $$;

CREATE TRIGGER "Post_word_rows_insert" AFTER INSERT ON "Post"
  REFERENCING NEW TABLE AS "inserted" FOR EACH STATEMENT EXECUTE FUNCTION "count_inserted_post_words"();

CREATE TRIGGER "Post_word_rows_delete" AFTER DELETE ON "Post"
  REFERENCING OLD TABLE AS "deleted" FOR EACH STATEMENT EXECUTE FUNCTION "count_deleted_post_words"();

CREATE TRIGGER "Post_word_rows_update" AFTER UPDATE OF "searchText", "boardId", "statusId" ON "Post"
  FOR EACH ROW
  WHEN (OLD."searchText" IS DISTINCT FROM NEW."searchText" OR OLD."boardId" IS DISTINCT FROM NEW."boardId" OR OLD."statusId" IS DISTINCT FROM NEW."statusId")
  EXECUTE FUNCTION "count_updated_post_words"();

CREATE TRIGGER "Post_word_rows_truncate" AFTER TRUNCATE ON "Post"
  FOR EACH STATEMENT EXECUTE FUNCTION "forget_post_words"();

-- The posts already written (about 45 s at a million posts on this project's machine).
INSERT INTO "SearchWordRows" ("table", "word", "boardId", "statusId", "rows")
  SELECT 'Post', words.w, p."boardId", COALESCE(p."statusId", ''), count(*)
  FROM "Post" p, LATERAL (SELECT DISTINCT w FROM unnest("search_words"(p."searchText")) AS w) AS words
  GROUP BY 2, 3, 4;

ANALYZE "SearchWordRows";
