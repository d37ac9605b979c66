-- Written by hand: merge each FTS5 index into one segment. FTS5 writes every batch of rows as a
-- segment of its own and merges only some of them as it goes, and a query reads a term's
-- matches from every segment; the seed, the imports and the migrations that wrote the indexes
-- again left several (the changelogs' word index 14, the posts' trigram index 12, at a million
-- posts). Merged, counting a changelog word with a status and two labels took 0.63 ms against
-- 2.38 (50,000 changelogs), and a trigram count of "okta" 0.73 against 1.26. The seed and
-- large imports merge them from now on (lib/bulk.ts, mergeSearchIndexes). At a million posts
-- this takes about 7 s.
INSERT INTO "PostSearch"("PostSearch") VALUES ('optimize');
INSERT INTO "PostWords"("PostWords") VALUES ('optimize');
INSERT INTO "ChangelogSearch"("ChangelogSearch") VALUES ('optimize');
INSERT INTO "ChangelogWords"("ChangelogWords") VALUES ('optimize');
