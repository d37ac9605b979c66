-- Written by hand: the changelogs' word index also holds each changelog's status and labels as
-- words of their own, as the posts' holds board and status (word_index_filter_keys), so that a
-- search by words with a status and/or labels filter is counted by the index alone instead of
-- by walking the status's index and probing each changelog's labels (at 50,000 changelogs,
-- about 40 ms such a count). A key is "ς" (which folded text never holds), "s" for the status
-- or "l" for a label, and the status's or the label's folded name (nameKey) in UTF-8 bytes, in
-- lowercase hex (lib/dialect.ts, filterKey). The vocabulary leaves keys out (Dialect.words).
-- The index is contentless and deletes by rowid, as the posts' is. A changelog's row of the
-- index is written again whenever its text, its status or one of its labels changes.
DROP TRIGGER "Changelog_words_insert";
DROP TRIGGER "Changelog_words_delete";
DROP TRIGGER "Changelog_words_update";
DROP TABLE "ChangelogWordsVocab";
DROP TABLE "ChangelogWords";

CREATE VIRTUAL TABLE "ChangelogWords" USING fts5("searchText", content='', contentless_delete=1, detail=none, tokenize='ascii');

-- Each changelog's row of the index, written in one place: its text, then its status's key and
-- each of its labels' keys.
CREATE VIEW "ChangelogWordsRow" AS
  SELECT c."seq", c."id", c."searchText" || char(10) || 'ςs' || lower(hex(c."status"))
      || coalesce((SELECT group_concat(' ςl' || lower(hex(l."nameKey")), '') FROM "ChangelogLabel" l WHERE l."changelogId" = c."id"), '') AS "text"
    FROM "Changelog" c;

INSERT INTO "ChangelogWords"(rowid, "searchText") SELECT "seq", "text" FROM "ChangelogWordsRow";

CREATE TRIGGER "Changelog_words_insert" AFTER INSERT ON "Changelog" BEGIN
  INSERT INTO "ChangelogWords"(rowid, "searchText") SELECT "seq", "text" FROM "ChangelogWordsRow" WHERE "seq" = new."seq";
END;

CREATE TRIGGER "Changelog_words_delete" AFTER DELETE ON "Changelog" BEGIN
  DELETE FROM "ChangelogWords" WHERE rowid = old."seq";
END;

CREATE TRIGGER "Changelog_words_update" AFTER UPDATE OF "searchText", "status" ON "Changelog" BEGIN
  DELETE FROM "ChangelogWords" WHERE rowid = old."seq";
  INSERT INTO "ChangelogWords"(rowid, "searchText") SELECT "seq", "text" FROM "ChangelogWordsRow" WHERE "seq" = new."seq";
END;

-- A label added to or taken from a changelog writes that changelog's row again, with its labels
-- as they now are (a changelog deleted with its labels has no row left to write).
CREATE TRIGGER "ChangelogLabel_words_insert" AFTER INSERT ON "ChangelogLabel" BEGIN
  DELETE FROM "ChangelogWords" WHERE rowid IN (SELECT "seq" FROM "Changelog" WHERE "id" = new."changelogId");
  INSERT INTO "ChangelogWords"(rowid, "searchText") SELECT "seq", "text" FROM "ChangelogWordsRow" WHERE "id" = new."changelogId";
END;

CREATE TRIGGER "ChangelogLabel_words_delete" AFTER DELETE ON "ChangelogLabel" BEGIN
  DELETE FROM "ChangelogWords" WHERE rowid IN (SELECT "seq" FROM "Changelog" WHERE "id" = old."changelogId");
  INSERT INTO "ChangelogWords"(rowid, "searchText") SELECT "seq", "text" FROM "ChangelogWordsRow" WHERE "id" = old."changelogId";
END;

CREATE TRIGGER "ChangelogLabel_words_update" AFTER UPDATE OF "changelogId", "nameKey" ON "ChangelogLabel" BEGIN
  DELETE FROM "ChangelogWords" WHERE rowid IN (SELECT "seq" FROM "Changelog" WHERE "id" IN (old."changelogId", new."changelogId"));
  INSERT INTO "ChangelogWords"(rowid, "searchText") SELECT "seq", "text" FROM "ChangelogWordsRow" WHERE "id" IN (old."changelogId", new."changelogId");
END;

CREATE VIRTUAL TABLE "ChangelogWordsVocab" USING fts5vocab('ChangelogWords', 'row');
