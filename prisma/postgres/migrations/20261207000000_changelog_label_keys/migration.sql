-- Written by hand: each changelog's folded label names on its own row ("labelKeys", sorted),
-- kept by the writes of its labels in their transaction, and a word index that holds its status
-- and those labels beside its words (lib/changelogs/queries.ts), as the post list's holds board
-- and status (the word_filters_index migration) and as SQLite's word index holds them as keys.
-- A search by words with labels probed each match's labels in "ChangelogLabel": at a million
-- posts (50,000 changelogs) such bounded counts took 6-16 ms each alone and warm, and 58-132 ms
-- under load, most of what those requests cost. Through this index a word with a status and two
-- labels took 2.7 ms against 12.8 (838 buffers against 8,073), a word in every changelog with a
-- label 9 ms for its 10,001 rows. A page's walk of the sort order tests the row's own column
-- instead of probing the labels' table.
-- The column is not in the Prisma schema: the app writes it only through these triggers, and
-- reads it in hand-written SQL alone. SQLite keeps no such column.
ALTER TABLE "Changelog" ADD COLUMN "labelKeys" TEXT[] NOT NULL DEFAULT '{}';

-- A statement's changed labels, a statement at a time (a seed or an import writes thousands in
-- one), each changelog written once. PostgreSQL gives transition tables only to a trigger of
-- one event, so each event has a trigger, and the function reads the tables its event has.
CREATE FUNCTION "set_changelog_label_keys"(TEXT[]) RETURNS void LANGUAGE sql AS $$
  UPDATE "Changelog" c
    SET "labelKeys" = COALESCE((SELECT array_agg(l."nameKey" ORDER BY l."nameKey") FROM "ChangelogLabel" l WHERE l."changelogId" = c."id"), '{}')
    WHERE c."id" = ANY($1)
$$;

CREATE FUNCTION "keep_changelog_label_keys"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_OP = 'INSERT' THEN
    PERFORM "set_changelog_label_keys"(ARRAY(SELECT DISTINCT "changelogId" FROM "added"));
  ELSIF TG_OP = 'DELETE' THEN
    PERFORM "set_changelog_label_keys"(ARRAY(SELECT DISTINCT "changelogId" FROM "removed"));
  ELSE
    PERFORM "set_changelog_label_keys"(ARRAY(SELECT "changelogId" FROM "added" UNION SELECT "changelogId" FROM "removed"));
  END IF;
  RETURN NULL;
END $$;

CREATE TRIGGER "ChangelogLabel_keys_insert" AFTER INSERT ON "ChangelogLabel"
  REFERENCING NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "keep_changelog_label_keys"();
CREATE TRIGGER "ChangelogLabel_keys_delete" AFTER DELETE ON "ChangelogLabel"
  REFERENCING OLD TABLE AS "removed" FOR EACH STATEMENT EXECUTE FUNCTION "keep_changelog_label_keys"();
CREATE TRIGGER "ChangelogLabel_keys_update" AFTER UPDATE ON "ChangelogLabel"
  REFERENCING OLD TABLE AS "removed" NEW TABLE AS "added" FOR EACH STATEMENT EXECUTE FUNCTION "keep_changelog_label_keys"();

-- The changelogs that have labels already, in one statement.
UPDATE "Changelog" c SET "labelKeys" = k."keys"
  FROM (SELECT "changelogId", array_agg("nameKey" ORDER BY "nameKey") AS "keys" FROM "ChangelogLabel" GROUP BY 1) k
  WHERE k."changelogId" = c."id";

-- The new index replaces the word index under its name, whose statistics of words the app reads
-- (lib/vocabulary.ts), built before the old one goes, as in the word_filters_index migration.
-- It serves a search by words alone as well.
CREATE INDEX "Changelog_searchText_words_filters_idx" ON "Changelog" USING GIN ("status", "labelKeys", "search_words"("searchText"));

DROP INDEX "Changelog_searchText_words_idx";

ALTER INDEX "Changelog_searchText_words_filters_idx" RENAME TO "Changelog_searchText_words_idx";

ANALYZE "Changelog";
