-- Written by hand: how many changelogs hold each word, by status, kept by the writes themselves
-- as the word_rows migration keeps the posts' (under the board '', which no changelog has). A
-- search of one term with no filter but a status is then settled by its words' counts the way
-- a post search is (lib/vocabulary.ts, countFromWords): the commonest word past the bound
-- makes the total the bound's, and a term inside one word only has that word's count. At a
-- million posts (50,000 changelogs) such counts read the trigram index and every candidate's
-- row, 15.9 ms each, or the word index, 4.4 ms, for 7.3 of the 13.8 ms a drawn changelog
-- search took its database. Labels are not kept: a list asks for any of several, which counts
-- by label cannot add up to, and such a search is counted through the word index as before.
-- Every write is a statement at a time, each key's change summed once and written in key
-- order, as in the word_rows_by_statement migration; a changelog is followed by its id, and
-- its old and new rows are joined by a statement planned each time it runs (the
-- transition_joins_planned_each_time migration).
CREATE FUNCTION "count_inserted_changelog_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "SearchWordRows" ("table", "word", "boardId", "statusId", "rows")
    SELECT 'Changelog', words.w, '', c."status", count(*)
    FROM "inserted" c, LATERAL (SELECT DISTINCT w FROM unnest("search_words"(c."searchText")) AS w) AS words
    GROUP BY 2, 4
    ORDER BY 2, 4
    ON CONFLICT ("table", "word", "boardId", "statusId") DO UPDATE SET "rows" = "SearchWordRows"."rows" + EXCLUDED."rows";
  RETURN NULL;
END $$;

CREATE FUNCTION "count_deleted_changelog_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "SearchWordRows" r SET "rows" = r."rows" - gone.n
    FROM (
      SELECT words.w, c."status", count(*) AS n
      FROM "deleted" c, LATERAL (SELECT DISTINCT w FROM unnest("search_words"(c."searchText")) AS w) AS words
      GROUP BY 1, 2
    ) gone
    WHERE r."table" = 'Changelog' AND r."word" = gone.w AND r."boardId" = '' AND r."statusId" = gone."status";
  RETURN NULL;
END $$;

CREATE FUNCTION "count_updated_changelog_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE 'WITH moved AS (
    SELECT o."searchText" AS "oldText", o."status" AS "oldStatus", n."searchText" AS "newText", n."status" AS "newStatus"
    FROM "before" o JOIN "after" n ON n."id" = o."id"
    WHERE o."searchText" IS DISTINCT FROM n."searchText" OR o."status" IS DISTINCT FROM n."status"
  ),
  changes AS (
    SELECT words.w, m."oldStatus" AS "status", -1 AS n
      FROM moved m, LATERAL (SELECT DISTINCT w FROM unnest("search_words"(m."oldText")) AS w) AS words
    UNION ALL
    SELECT words.w, m."newStatus", 1
      FROM moved m, LATERAL (SELECT DISTINCT w FROM unnest("search_words"(m."newText")) AS w) AS words
  )
  INSERT INTO "SearchWordRows" ("table", "word", "boardId", "statusId", "rows")
    SELECT ''Changelog'', w, '''', "status", sum(n)
    FROM changes
    GROUP BY 2, 4
    HAVING sum(n) <> 0
    ORDER BY 2, 4
    ON CONFLICT ("table", "word", "boardId", "statusId") DO UPDATE SET "rows" = "SearchWordRows"."rows" + EXCLUDED."rows"';
  RETURN NULL;
END $$;

CREATE FUNCTION "forget_changelog_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "SearchWordRows" WHERE "table" = 'Changelog';
  RETURN NULL;
END $$;

CREATE TRIGGER "Changelog_word_rows_insert" AFTER INSERT ON "Changelog"
  REFERENCING NEW TABLE AS "inserted" FOR EACH STATEMENT EXECUTE FUNCTION "count_inserted_changelog_words"();

CREATE TRIGGER "Changelog_word_rows_delete" AFTER DELETE ON "Changelog"
  REFERENCING OLD TABLE AS "deleted" FOR EACH STATEMENT EXECUTE FUNCTION "count_deleted_changelog_words"();

CREATE TRIGGER "Changelog_word_rows_update" AFTER UPDATE ON "Changelog"
  REFERENCING OLD TABLE AS "before" NEW TABLE AS "after" FOR EACH STATEMENT EXECUTE FUNCTION "count_updated_changelog_words"();

CREATE TRIGGER "Changelog_word_rows_truncate" AFTER TRUNCATE ON "Changelog"
  FOR EACH STATEMENT EXECUTE FUNCTION "forget_changelog_words"();

-- The changelogs already written.
INSERT INTO "SearchWordRows" ("table", "word", "boardId", "statusId", "rows")
  SELECT 'Changelog', words.w, '', c."status", count(*)
  FROM "Changelog" c, LATERAL (SELECT DISTINCT w FROM unnest("search_words"(c."searchText")) AS w) AS words
  GROUP BY 2, 4;

ANALYZE "SearchWordRows";
