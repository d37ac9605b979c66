-- Written by hand: a second full-text index of each searched table, of whole words, beside the
-- trigram index. A term made only of word characters (letters, digits, anything past ASCII) lies
-- inside one word of any text that holds it, so its rows are exactly the rows holding one of the
-- words of the index that contain it (lib/vocabulary.ts finds those words in this index's
-- vocabulary). A word's list of rows is read without positions (detail=none), where the trigram
-- index must compare the positions of every trigram of the term: the count of two common words
-- at a million posts took 3-5 ms this way against 20-40 ms. The 'ascii' tokenizer keeps every
-- character past ASCII inside words and folds only ASCII letters, which searchText has folded
-- already (lib/search.ts), so a word of the index is exactly a run of the text.
CREATE VIRTUAL TABLE "PostWords" USING fts5("searchText", content='Post', content_rowid='seq', detail=none, tokenize='ascii');

INSERT INTO "PostWords"("PostWords") VALUES ('rebuild');

CREATE TRIGGER "Post_words_insert" AFTER INSERT ON "Post" BEGIN
  INSERT INTO "PostWords"(rowid, "searchText") VALUES (new."seq", new."searchText");
END;

CREATE TRIGGER "Post_words_delete" AFTER DELETE ON "Post" BEGIN
  INSERT INTO "PostWords"("PostWords", rowid, "searchText") VALUES ('delete', old."seq", old."searchText");
END;

CREATE TRIGGER "Post_words_update" AFTER UPDATE OF "searchText" ON "Post" BEGIN
  INSERT INTO "PostWords"("PostWords", rowid, "searchText") VALUES ('delete', old."seq", old."searchText");
  INSERT INTO "PostWords"(rowid, "searchText") VALUES (new."seq", new."searchText");
END;

CREATE VIRTUAL TABLE "PostWordsVocab" USING fts5vocab('PostWords', 'row');

CREATE VIRTUAL TABLE "ChangelogWords" USING fts5("searchText", content='Changelog', content_rowid='seq', detail=none, tokenize='ascii');

INSERT INTO "ChangelogWords"("ChangelogWords") VALUES ('rebuild');

CREATE TRIGGER "Changelog_words_insert" AFTER INSERT ON "Changelog" BEGIN
  INSERT INTO "ChangelogWords"(rowid, "searchText") VALUES (new."seq", new."searchText");
END;

CREATE TRIGGER "Changelog_words_delete" AFTER DELETE ON "Changelog" BEGIN
  INSERT INTO "ChangelogWords"("ChangelogWords", rowid, "searchText") VALUES ('delete', old."seq", old."searchText");
END;

CREATE TRIGGER "Changelog_words_update" AFTER UPDATE OF "searchText" ON "Changelog" BEGIN
  INSERT INTO "ChangelogWords"("ChangelogWords", rowid, "searchText") VALUES ('delete', old."seq", old."searchText");
  INSERT INTO "ChangelogWords"(rowid, "searchText") VALUES (new."seq", new."searchText");
END;

CREATE VIRTUAL TABLE "ChangelogWordsVocab" USING fts5vocab('ChangelogWords', 'row');
