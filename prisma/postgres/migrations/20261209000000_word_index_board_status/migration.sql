-- Written by hand: the word index (the word_filters_index migration) also holds each post's
-- board and status together, as one key, for counting a search by words with both filters
-- (lib/posts/queries.ts, countSql). GIN walks the lists of every key it is given, and a board's
-- and a status's are a fifth and a seventh of the posts, where the pair's is a thirty-fifth: at
-- a million posts, counting a term in four words on one board and status read the index for 16
-- ms through the two keys and 6 ms through the pair's (22 ms and 11 ms with the rows' pages). SQLite's
-- word index holds the same pair as a key of its own (the word_index_board_status_keys
-- migration).
-- The key leads with the board id's length in bytes, so that no two pairs give the same text
-- (ids may hold any character). A post without a status has no key (the concatenation is NULL):
-- a status filter never matches it. The new index is built before the old one goes, as in the
-- word_filters_index migration, and takes its name. The app reads that index's statistics of
-- words (lib/vocabulary.ts); a new index has none until the table is analyzed, and every word
-- would pass for rare meanwhile, so the migration analyzes it (a few seconds at a million posts).
CREATE FUNCTION "post_board_status"(text, text) RETURNS text
  LANGUAGE sql IMMUTABLE PARALLEL SAFE
  AS $$ SELECT octet_length($1)::text || ':' || $1 || $2 $$;

CREATE INDEX "Post_searchText_words_pairs_idx" ON "Post" USING GIN ("boardId", "statusId", "post_board_status"("boardId", "statusId"), "search_words"("searchText"));

DROP INDEX "Post_searchText_words_idx";

ALTER INDEX "Post_searchText_words_pairs_idx" RENAME TO "Post_searchText_words_idx";

ANALYZE "Post";
