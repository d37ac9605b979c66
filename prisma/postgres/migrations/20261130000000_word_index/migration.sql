-- Written by hand: longer search terms through the words of the text (lib/vocabulary.ts), as
-- SQLite's word index does. pg_trgm finds a term by the rows of each of its trigrams and then
-- reads every candidate row to test the term itself; a count of two common words read tens of
-- thousands of rows. "search_words" cuts a text into words where SQLite's 'ascii' tokenizer
-- does, at ASCII characters other than letters and digits, so a term made only of letters,
-- digits and characters past ASCII lies inside one word of every text that holds it: its rows
-- are exactly the rows holding one of the words that contain it. A GIN index over the words
-- finds those rows, and its answer needs no row test (an array overlap is exact), so a count
-- reads the index and the visibility map only.
-- A word longer than 500 characters becomes the empty string: an index key must fit in a third
-- of a page (2,712 bytes; a 4,816-byte word of hex digits made the write fail), and 500
-- characters take at most 2,000 bytes. A term may lie inside such a word, so while any text of
-- a table holds one, that table's terms are not found by their words (lib/vocabulary.ts).
-- COST and PARALLEL UNSAFE: as search_short_grams (the short_term_index migration): the planner
-- computes the expression row by row only where it must, after a row's cheaper tests.
CREATE FUNCTION "search_words"(text) RETURNS text[]
  LANGUAGE sql IMMUTABLE STRICT PARALLEL UNSAFE COST 10000
  AS $$ SELECT ARRAY(SELECT CASE WHEN length(w) > 500 THEN '' ELSE w END
                     FROM unnest(regexp_split_to_array($1, '[\u0001-\u002f\u003a-\u0040\u005b-\u0060\u007b-\u007f]+')) AS w
                     WHERE w <> '') $$;

CREATE INDEX "Post_searchText_words_idx" ON "Post" USING GIN ("search_words"("searchText"));

CREATE INDEX "Changelog_searchText_words_idx" ON "Changelog" USING GIN ("search_words"("searchText"));

-- Every word any text of a table has held: a term's words are those that contain it, found
-- through pg_trgm. Kept by the writes themselves, in their transaction, so a word is here
-- before any reader can see a row that holds it. A word no row holds any more stays: it costs
-- a key with no rows, never a wrong answer. The empty string says a text held a word too long
-- to keep.
CREATE TABLE "SearchWord" (
    "table" TEXT NOT NULL,
    "word" TEXT NOT NULL,
    CONSTRAINT "SearchWord_pkey" PRIMARY KEY ("table", "word")
);

CREATE INDEX "SearchWord_word_trgm_idx" ON "SearchWord" USING GIN ("word" gin_trgm_ops);

-- An insert's words in one statement-level trigger, so an import of thousands of rows looks up
-- each distinct word once; an update's in a row-level one, since PostgreSQL gives no
-- transition table to a trigger on some columns only, and fires this one only for a new text.
CREATE FUNCTION "remember_inserted_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "SearchWord" ("table", "word")
    SELECT DISTINCT TG_ARGV[0], w FROM "inserted", unnest("search_words"("inserted"."searchText")) AS w
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE FUNCTION "remember_updated_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "SearchWord" ("table", "word")
    SELECT DISTINCT TG_ARGV[0], w FROM unnest("search_words"(NEW."searchText")) AS w
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER "Post_words_insert" AFTER INSERT ON "Post"
  REFERENCING NEW TABLE AS "inserted" FOR EACH STATEMENT EXECUTE FUNCTION "remember_inserted_words"('Post');

CREATE TRIGGER "Post_words_update" AFTER UPDATE OF "searchText" ON "Post"
  FOR EACH ROW WHEN (OLD."searchText" IS DISTINCT FROM NEW."searchText") EXECUTE FUNCTION "remember_updated_words"('Post');

CREATE TRIGGER "Changelog_words_insert" AFTER INSERT ON "Changelog"
  REFERENCING NEW TABLE AS "inserted" FOR EACH STATEMENT EXECUTE FUNCTION "remember_inserted_words"('Changelog');

CREATE TRIGGER "Changelog_words_update" AFTER UPDATE OF "searchText" ON "Changelog"
  FOR EACH ROW WHEN (OLD."searchText" IS DISTINCT FROM NEW."searchText") EXECUTE FUNCTION "remember_updated_words"('Changelog');

INSERT INTO "SearchWord" ("table", "word")
  SELECT DISTINCT 'Post', w FROM "Post", unnest("search_words"("searchText")) AS w;

INSERT INTO "SearchWord" ("table", "word")
  SELECT DISTINCT 'Changelog', w FROM "Changelog", unnest("search_words"("searchText")) AS w;

-- The planner's statistics of the new expressions (how common each word is).
ANALYZE "Post";

ANALYZE "Changelog";

ANALYZE "SearchWord";
