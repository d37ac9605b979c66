-- Written by hand: the word index (the word_index migration) holds each post's board and status
-- beside its words (btree_gin gives GIN the two text columns), for counting a search by words
-- with those filters (lib/posts/queries.ts, countSql). The planner had the word index (or
-- pg_trgm's) and a filter's b-tree each find all their rows, intersected the two bitmaps and
-- read every row left: a common word's bitmap held about 186,000 rows at a million posts to
-- count 5,000. This index walks the keys' lists of rows together and gives only the rows that
-- hold all of them. It serves a search by words alone as well, so it replaces the word index,
-- under its name, whose statistics of words the app reads (lib/vocabulary.ts).
-- The new index is built before the old one goes: building it keeps posts from being written,
-- not read, and the DROP, whose lock keeps every reader out until the migration commits, comes
-- last, a moment before that. btree_gin is a trusted extension, as pg_trgm: the database's
-- owner may create it.
CREATE EXTENSION IF NOT EXISTS btree_gin;

CREATE INDEX "Post_searchText_words_filters_idx" ON "Post" USING GIN ("boardId", "statusId", "search_words"("searchText"));

DROP INDEX "Post_searchText_words_idx";

ALTER INDEX "Post_searchText_words_filters_idx" RENAME TO "Post_searchText_words_idx";
