-- Written by hand: the words of changed texts are remembered (the word_index migration's
-- "SearchWord") a statement at a time, as inserted texts' are. The row-level trigger ran a
-- statement for each changed post: 182-189 ms of an UPDATE of 2,000 posts' text at a million
-- posts (0.09 ms a post), beside 148 ms for their kept word counts. Now each new word is looked
-- up once per statement, in word order, so two writers meet on their first shared new word.
-- A row is followed by its id, which no write of this app changes (as in the
-- word_rows_by_statement migration); a statement that changes no text computes no words.
DROP TRIGGER "Post_words_update" ON "Post";
DROP TRIGGER "Changelog_words_update" ON "Changelog";
DROP FUNCTION "remember_updated_words"();

CREATE FUNCTION "remember_updated_words"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO "SearchWord" ("table", "word")
    SELECT DISTINCT TG_ARGV[0], w
    FROM "before" o JOIN "after" n ON n."id" = o."id", unnest("search_words"(n."searchText")) AS w
    WHERE o."searchText" IS DISTINCT FROM n."searchText"
    ORDER BY 2
    ON CONFLICT DO NOTHING;
  RETURN NULL;
END $$;

CREATE TRIGGER "Post_words_update" AFTER UPDATE ON "Post"
  REFERENCING OLD TABLE AS "before" NEW TABLE AS "after" FOR EACH STATEMENT EXECUTE FUNCTION "remember_updated_words"('Post');

CREATE TRIGGER "Changelog_words_update" AFTER UPDATE ON "Changelog"
  REFERENCING OLD TABLE AS "before" NEW TABLE AS "after" FOR EACH STATEMENT EXECUTE FUNCTION "remember_updated_words"('Changelog');
