-- Written by hand: which changelogs hold each word, have each status and carry each label, as
-- bitmaps, kept by the writes themselves in their transaction, as the post_word_bits migration
-- keeps the posts'. A search of the changelogs by words, with a status and/or labels, was
-- counted through the word index, which reads every match's row to see whether it is visible:
-- at a million posts (50,000 changelogs), under the varied workload one at a time, 2.5 of the
-- 4.5 ms of database time a drawn changelog search took. Here the count ORs each term's words'
-- bitmaps and the labels' bitmaps, ANDs the terms, the status and the labels, and counts the
-- bits (lib/dialect.ts, countByWordBits), reading no changelog.
--
-- The keys are the changelog's words, "status:<status>" and "label:<folded name>" for each of
-- its labels ("labelKeys", the changelog_label_keys migration, kept on its row by the labels'
-- own triggers, so a label's write reaches the bitmaps through the update of that row). No word
-- can be such a key: "search_words" cuts at ":".
--
-- A changelog's bit is its "seq", as a post's is: chunk seq >> 14, bit seq & 16383 within a
-- bit(16384). Every write is a statement at a time, each row's change gathered once and written
-- in key order, byte by byte first, as in that migration.
CREATE TABLE "ChangelogWordBits" (
    "word" TEXT NOT NULL,
    "chunk" INTEGER NOT NULL,
    "bits" BIT(16384) NOT NULL,
    CONSTRAINT "ChangelogWordBits_pkey" PRIMARY KEY ("word", "chunk")
);

-- A changelog's words, status and labels, as the bitmaps' keys.
CREATE FUNCTION "changelog_bit_keys"(text, text, text[]) RETURNS text[]
  LANGUAGE sql IMMUTABLE
  AS $$ SELECT "search_words"($1) || ARRAY['status:' || $2] || ARRAY(SELECT 'label:' || k FROM unnest($3) AS k) $$;

CREATE FUNCTION "set_changelog_word_bits"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE 'INSERT INTO "ChangelogWordBits" ("word", "chunk", "bits")
    SELECT w, c, bit_or((v::bit(8))::bit(16384) >> (k * 8))
    FROM (
      SELECT keys.w, t."seq" >> 14 AS c, (t."seq" & 16383) >> 3 AS k, bit_or(128 >> (t."seq" & 7)) AS v
      FROM "inserted" t, LATERAL (SELECT DISTINCT w FROM unnest("changelog_bit_keys"(t."searchText", t."status", t."labelKeys")) AS w) AS keys
      GROUP BY 1, 2, 3
    ) bytes
    GROUP BY 1, 2
    ORDER BY 1, 2
    ON CONFLICT ("word", "chunk") DO UPDATE SET "bits" = "ChangelogWordBits"."bits" | EXCLUDED."bits"';
  RETURN NULL;
END $$;

CREATE FUNCTION "clear_changelog_word_bits"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE 'UPDATE "ChangelogWordBits" b SET "bits" = b."bits" & ~gone."bits"
    FROM (
      SELECT w, c, bit_or((v::bit(8))::bit(16384) >> (k * 8)) AS "bits"
      FROM (
        SELECT keys.w, t."seq" >> 14 AS c, (t."seq" & 16383) >> 3 AS k, bit_or(128 >> (t."seq" & 7)) AS v
        FROM "deleted" t, LATERAL (SELECT DISTINCT w FROM unnest("changelog_bit_keys"(t."searchText", t."status", t."labelKeys")) AS w) AS keys
        GROUP BY 1, 2, 3
      ) bytes
      GROUP BY 1, 2
    ) gone
    WHERE b."word" = gone.w AND b."chunk" = gone.c';
  RETURN NULL;
END $$;

-- A changed text, status or labels: its changelog's bit is set in the keys it gained and
-- cleared in those it lost, each by its own statement, as for a post. A changelog's "seq" is
-- never changed by this app, and a statement that changes none of the three (a new sort time
-- alone) computes no keys.
CREATE FUNCTION "move_changelog_word_bits"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  EXECUTE 'INSERT INTO "ChangelogWordBits" ("word", "chunk", "bits")
    SELECT w, c, bit_or((v::bit(8))::bit(16384) >> (k * 8))
    FROM (
      SELECT gained.w, n."seq" >> 14 AS c, (n."seq" & 16383) >> 3 AS k, bit_or(128 >> (n."seq" & 7)) AS v
      FROM "before" o JOIN "after" n ON n."id" = o."id", LATERAL (
        SELECT unnest("changelog_bit_keys"(n."searchText", n."status", n."labelKeys"))
        EXCEPT SELECT unnest("changelog_bit_keys"(o."searchText", o."status", o."labelKeys"))) AS gained(w)
      WHERE o."searchText" IS DISTINCT FROM n."searchText" OR o."status" IS DISTINCT FROM n."status"
        OR o."labelKeys" IS DISTINCT FROM n."labelKeys"
      GROUP BY 1, 2, 3
    ) bytes
    GROUP BY 1, 2
    ORDER BY 1, 2
    ON CONFLICT ("word", "chunk") DO UPDATE SET "bits" = "ChangelogWordBits"."bits" | EXCLUDED."bits"';
  EXECUTE 'UPDATE "ChangelogWordBits" b SET "bits" = b."bits" & ~gone."bits"
    FROM (
      SELECT w, c, bit_or((v::bit(8))::bit(16384) >> (k * 8)) AS "bits"
      FROM (
        SELECT lost.w, n."seq" >> 14 AS c, (n."seq" & 16383) >> 3 AS k, bit_or(128 >> (n."seq" & 7)) AS v
        FROM "before" o JOIN "after" n ON n."id" = o."id", LATERAL (
          SELECT unnest("changelog_bit_keys"(o."searchText", o."status", o."labelKeys"))
          EXCEPT SELECT unnest("changelog_bit_keys"(n."searchText", n."status", n."labelKeys"))) AS lost(w)
        WHERE o."searchText" IS DISTINCT FROM n."searchText" OR o."status" IS DISTINCT FROM n."status"
          OR o."labelKeys" IS DISTINCT FROM n."labelKeys"
        GROUP BY 1, 2, 3
      ) bytes
      GROUP BY 1, 2
    ) gone
    WHERE b."word" = gone.w AND b."chunk" = gone.c';
  RETURN NULL;
END $$;

CREATE FUNCTION "forget_changelog_word_bits"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  DELETE FROM "ChangelogWordBits";
  RETURN NULL;
END $$;

CREATE TRIGGER "Changelog_word_bits_insert" AFTER INSERT ON "Changelog"
  REFERENCING NEW TABLE AS "inserted" FOR EACH STATEMENT EXECUTE FUNCTION "set_changelog_word_bits"();

CREATE TRIGGER "Changelog_word_bits_delete" AFTER DELETE ON "Changelog"
  REFERENCING OLD TABLE AS "deleted" FOR EACH STATEMENT EXECUTE FUNCTION "clear_changelog_word_bits"();

CREATE TRIGGER "Changelog_word_bits_update" AFTER UPDATE ON "Changelog"
  REFERENCING OLD TABLE AS "before" NEW TABLE AS "after" FOR EACH STATEMENT EXECUTE FUNCTION "move_changelog_word_bits"();

CREATE TRIGGER "Changelog_word_bits_truncate" AFTER TRUNCATE ON "Changelog"
  FOR EACH STATEMENT EXECUTE FUNCTION "forget_changelog_word_bits"();

-- The changelogs already written.
INSERT INTO "ChangelogWordBits" ("word", "chunk", "bits")
  SELECT w, c, bit_or((v::bit(8))::bit(16384) >> (k * 8))
  FROM (
    SELECT keys.w, t."seq" >> 14 AS c, (t."seq" & 16383) >> 3 AS k, bit_or(128 >> (t."seq" & 7)) AS v
    FROM "Changelog" t, LATERAL (SELECT DISTINCT w FROM unnest("changelog_bit_keys"(t."searchText", t."status", t."labelKeys")) AS w) AS keys
    GROUP BY 1, 2, 3
  ) bytes
  GROUP BY 1, 2;
