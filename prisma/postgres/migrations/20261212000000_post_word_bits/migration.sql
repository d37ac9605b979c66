-- Written by hand: which posts hold each word, as bitmaps, kept by the writes themselves in
-- their transaction, so that a search of several terms is counted without reading a post. A
-- term made of letters and digits is in exactly the posts of the words that contain it (the
-- word_index migration), so a search's count is the number of posts in every term's union of
-- its words' posts. The word index gives that too, but it must then read every match's row to
-- see whether the row is visible (PostgreSQL 15.13 and later no longer skip the rows of pages
-- all visible): a pair of common words, ~7,000 matches at a million posts, read ~7,000 pages,
-- 22-40 ms a count and 37 of the 49 ms a drawn pair took its database. Here the same count
-- ANDs, per chunk, each word's bitmap, and counts the bits (lib/dialect.ts, countByWordBits).
--
-- A post's board and status are kept the same way, as the keys "board:<id>" and
-- "status:<id>" ("status:" without one), which no word can be (search_words cuts at ":"), so a
-- search with a board and/or a status filter is counted by ANDing their bitmaps too.
--
-- A post's bit is its "seq": chunk seq >> 14, bit seq & 16383 within a bit(16384), 2 KB. Rows
-- this size are compressed when written (past PostgreSQL's 2 KB threshold), so a chunk holding
-- few posts of a rare word costs a few dozen bytes, not 2 KB. A chunk whose posts are all
-- gone keeps its row, all zeros.
--
-- Every write is a statement at a time, each row's change gathered once and written in key
-- order, as the word_rows_by_statement migration does. A statement's bits are gathered byte by
-- byte first (an integer per byte), then the bytes into bitmaps: shifting a 2 KB bitmap for
-- each word of each post took half again as long at a million posts.
CREATE TABLE "PostWordBits" (
    "word" TEXT NOT NULL,
    "chunk" INTEGER NOT NULL,
    "bits" BIT(16384) NOT NULL,
    CONSTRAINT "PostWordBits_pkey" PRIMARY KEY ("word", "chunk")
);

-- A post's words, board and status, as the bitmaps' keys.
CREATE FUNCTION "post_bit_keys"(text, text, text) RETURNS text[]
  LANGUAGE sql IMMUTABLE
  AS $$ SELECT "search_words"($1) || ARRAY['board:' || $2, 'status:' || COALESCE($3, '')] $$;

CREATE FUNCTION "set_post_word_bits"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE 'INSERT INTO "PostWordBits" ("word", "chunk", "bits")
    SELECT w, c, bit_or((v::bit(8))::bit(16384) >> (k * 8))
    FROM (
      SELECT words.w, p."seq" >> 14 AS c, (p."seq" & 16383) >> 3 AS k, bit_or(128 >> (p."seq" & 7)) AS v
      FROM "inserted" p, LATERAL (SELECT DISTINCT w FROM unnest("post_bit_keys"(p."searchText", p."boardId", p."statusId")) AS w) AS words
      GROUP BY 1, 2, 3
    ) bytes
    GROUP BY 1, 2
    ORDER BY 1, 2
    ON CONFLICT ("word", "chunk") DO UPDATE SET "bits" = "PostWordBits"."bits" | EXCLUDED."bits"';
  RETURN NULL;
END $$;

CREATE FUNCTION "clear_post_word_bits"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE 'UPDATE "PostWordBits" b SET "bits" = b."bits" & ~gone."bits"
    FROM (
      SELECT w, c, bit_or((v::bit(8))::bit(16384) >> (k * 8)) AS "bits"
      FROM (
        SELECT words.w, p."seq" >> 14 AS c, (p."seq" & 16383) >> 3 AS k, bit_or(128 >> (p."seq" & 7)) AS v
        FROM "deleted" p, LATERAL (SELECT DISTINCT w FROM unnest("post_bit_keys"(p."searchText", p."boardId", p."statusId")) AS w) AS words
        GROUP BY 1, 2, 3
      ) bytes
      GROUP BY 1, 2
    ) gone
    WHERE b."word" = gone.w AND b."chunk" = gone.c';
  RETURN NULL;
END $$;

-- A changed text, board or status: its post's bit is set in the keys it gained and cleared in
-- those it lost (the two never meet in one post, so their order does not matter), each by its
-- own statement, which locks the rows it changes and reads their latest bits. A post's "seq" is
-- never changed by this app, and a statement that changes no text, board or status (an
-- import's recount of comments) computes no keys.
CREATE FUNCTION "move_post_word_bits"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE 'INSERT INTO "PostWordBits" ("word", "chunk", "bits")
    SELECT w, c, bit_or((v::bit(8))::bit(16384) >> (k * 8))
    FROM (
      SELECT gained.w, n."seq" >> 14 AS c, (n."seq" & 16383) >> 3 AS k, bit_or(128 >> (n."seq" & 7)) AS v
      FROM "before" o JOIN "after" n ON n."id" = o."id", LATERAL (
        SELECT unnest("post_bit_keys"(n."searchText", n."boardId", n."statusId"))
        EXCEPT SELECT unnest("post_bit_keys"(o."searchText", o."boardId", o."statusId"))) AS gained(w)
      WHERE o."searchText" IS DISTINCT FROM n."searchText" OR o."boardId" IS DISTINCT FROM n."boardId"
        OR o."statusId" IS DISTINCT FROM n."statusId"
      GROUP BY 1, 2, 3
    ) bytes
    GROUP BY 1, 2
    ORDER BY 1, 2
    ON CONFLICT ("word", "chunk") DO UPDATE SET "bits" = "PostWordBits"."bits" | EXCLUDED."bits"';
  EXECUTE 'UPDATE "PostWordBits" b SET "bits" = b."bits" & ~gone."bits"
    FROM (
      SELECT w, c, bit_or((v::bit(8))::bit(16384) >> (k * 8)) AS "bits"
      FROM (
        SELECT lost.w, n."seq" >> 14 AS c, (n."seq" & 16383) >> 3 AS k, bit_or(128 >> (n."seq" & 7)) AS v
        FROM "before" o JOIN "after" n ON n."id" = o."id", LATERAL (
          SELECT unnest("post_bit_keys"(o."searchText", o."boardId", o."statusId"))
          EXCEPT SELECT unnest("post_bit_keys"(n."searchText", n."boardId", n."statusId"))) AS lost(w)
        WHERE o."searchText" IS DISTINCT FROM n."searchText" OR o."boardId" IS DISTINCT FROM n."boardId"
        OR o."statusId" IS DISTINCT FROM n."statusId"
        GROUP BY 1, 2, 3
      ) bytes
      GROUP BY 1, 2
    ) gone
    WHERE b."word" = gone.w AND b."chunk" = gone.c';
  RETURN NULL;
END $$;

CREATE FUNCTION "forget_post_word_bits"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "PostWordBits";
  RETURN NULL;
END $$;

CREATE TRIGGER "Post_word_bits_insert" AFTER INSERT ON "Post"
  REFERENCING NEW TABLE AS "inserted" FOR EACH STATEMENT EXECUTE FUNCTION "set_post_word_bits"();

CREATE TRIGGER "Post_word_bits_delete" AFTER DELETE ON "Post"
  REFERENCING OLD TABLE AS "deleted" FOR EACH STATEMENT EXECUTE FUNCTION "clear_post_word_bits"();

CREATE TRIGGER "Post_word_bits_update" AFTER UPDATE ON "Post"
  REFERENCING OLD TABLE AS "before" NEW TABLE AS "after" FOR EACH STATEMENT EXECUTE FUNCTION "move_post_word_bits"();

CREATE TRIGGER "Post_word_bits_truncate" AFTER TRUNCATE ON "Post"
  FOR EACH STATEMENT EXECUTE FUNCTION "forget_post_word_bits"();

-- The posts already written.
INSERT INTO "PostWordBits" ("word", "chunk", "bits")
  SELECT w, c, bit_or((v::bit(8))::bit(16384) >> (k * 8))
  FROM (
    SELECT words.w, p."seq" >> 14 AS c, (p."seq" & 16383) >> 3 AS k, bit_or(128 >> (p."seq" & 7)) AS v
    FROM "Post" p, LATERAL (SELECT DISTINCT w FROM unnest("post_bit_keys"(p."searchText", p."boardId", p."statusId")) AS w) AS words
    GROUP BY 1, 2, 3
  ) bytes
  GROUP BY 1, 2;
