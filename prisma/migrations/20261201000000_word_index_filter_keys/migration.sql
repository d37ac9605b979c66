-- Written by hand: the posts' word index also holds each post's board and status as words of
-- their own, so that a search by words with a board and/or status filter is counted by the
-- index alone, an intersection of lists of rows, instead of by walking the filter's index and
-- testing each entry against the words' matches (at a million posts, 107-204 ms such a count
-- against about 5 ms). A key is "ς" (the final sigma, which folded text never holds: lib/search.ts
-- turns it into σ, so no text can forge a key), "b" or "s", and the id's UTF-8 bytes in lowercase
-- hex: letters and digits the 'ascii' tokenizer keeps in one word (lib/dialect.ts, filterKey). A
-- post with no status holds "ςs" alone, which no filter asks for. The vocabulary leaves keys out
-- (Dialect.words), so that no term is found inside one.
-- The index no longer reads its text from "Post" (a key is in no column): it is contentless, and
-- deletes by rowid (contentless_delete, SQLite 3.43 and later).
DROP TRIGGER "Post_words_insert";
DROP TRIGGER "Post_words_delete";
DROP TRIGGER "Post_words_update";
DROP TABLE "PostWordsVocab";
DROP TABLE "PostWords";

CREATE VIRTUAL TABLE "PostWords" USING fts5("searchText", content='', contentless_delete=1, detail=none, tokenize='ascii');

INSERT INTO "PostWords"(rowid, "searchText")
  SELECT "seq", "searchText" || char(10) || 'ςb' || lower(hex("boardId")) || ' ςs' || lower(hex("statusId")) FROM "Post";

CREATE TRIGGER "Post_words_insert" AFTER INSERT ON "Post" BEGIN
  INSERT INTO "PostWords"(rowid, "searchText")
    VALUES (new."seq", new."searchText" || char(10) || 'ςb' || lower(hex(new."boardId")) || ' ςs' || lower(hex(new."statusId")));
END;

CREATE TRIGGER "Post_words_delete" AFTER DELETE ON "Post" BEGIN
  DELETE FROM "PostWords" WHERE rowid = old."seq";
END;

CREATE TRIGGER "Post_words_update" AFTER UPDATE OF "searchText", "boardId", "statusId" ON "Post" BEGIN
  DELETE FROM "PostWords" WHERE rowid = old."seq";
  INSERT INTO "PostWords"(rowid, "searchText")
    VALUES (new."seq", new."searchText" || char(10) || 'ςb' || lower(hex(new."boardId")) || ' ςs' || lower(hex(new."statusId")));
END;

CREATE VIRTUAL TABLE "PostWordsVocab" USING fts5vocab('PostWords', 'row');
