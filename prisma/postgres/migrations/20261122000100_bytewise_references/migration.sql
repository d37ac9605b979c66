-- Written by hand (PostgreSQL only). "Post"."id" and "Changelog"."id" compare bytewise
-- (COLLATE "C", see the init migration), so the columns that refer to them must too: with
-- mixed collations PostgreSQL cannot use an index for `label."changelogId" = changelog."id"`
-- and falls back to filtering every label row.
ALTER TABLE "ChangelogLabel" ALTER COLUMN "changelogId" TYPE TEXT COLLATE "C";

ALTER TABLE "Comment" ALTER COLUMN "postId" TYPE TEXT COLLATE "C";
