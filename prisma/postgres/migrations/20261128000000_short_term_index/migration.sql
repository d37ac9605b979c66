-- Written by hand: one- and two-character search terms through an index (lib/dialect.ts).
-- pg_trgm's index cannot find a term shorter than a trigram, so a search made of such terms
-- tested every row (seconds at a million posts). "search_short_grams" lists every character of
-- a text and every pair of adjacent characters; a row holds a one- or two-character term
-- exactly when the term is in that list, so a GIN index over it finds those rows, and a term no
-- row holds, without reading one. Duplicates need no removing: GIN keeps each key once per row.
-- COST: about 35 µs a call here, so the planner evaluates it row by row only where it must,
-- and tests a row's cheap conditions first. PARALLEL UNSAFE is about plans, not safety: a
-- search through this index reads a few thousand rows at most, and starting parallel workers
-- for it (which its cost invites) made it slower, not faster (one at a time, 300 searches at a
-- million posts: 13 ms on average with workers, 5.4 ms without; under load, twice the
-- throughput). A query that holds the expression never gets workers.
CREATE FUNCTION "search_short_grams"(text) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL UNSAFE COST 10000
  AS $$ SELECT c || ARRAY(SELECT unnest(c[1:cardinality(c) - 1]) || unnest(c[2:])) FROM (SELECT string_to_array($1, NULL) AS c) s $$;

CREATE INDEX "Post_searchText_short_idx" ON "Post" USING GIN ("search_short_grams"("searchText"));

CREATE INDEX "Changelog_searchText_short_idx" ON "Changelog" USING GIN ("search_short_grams"("searchText"));

-- The planner's statistics of the new expressions (how common each character and pair is), so
-- a common letter's page is still found by walking the sort order instead of through the index.
ANALYZE "Post";

ANALYZE "Changelog";
