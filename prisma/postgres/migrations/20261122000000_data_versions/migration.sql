-- CreateTable
CREATE TABLE "DataVersion" (
    "name" TEXT NOT NULL,
    "version" BIGINT NOT NULL DEFAULT 0,

    CONSTRAINT "DataVersion_pkey" PRIMARY KEY ("name")
);

-- Written by hand: a version per table, moved by every write that can change a list's total
-- (lib/totals.ts). Writes that cannot (upvotes, commentCount, timestamps) leave it alone.
-- Statement-level triggers: one bump per statement, so bulk writes stay cheap. The version
-- row is locked until the writing transaction ends, so a reader never sees the new version
-- before the rows it stands for.
INSERT INTO "DataVersion" ("name", "version") VALUES ('Post', 0), ('Changelog', 0);

CREATE FUNCTION "bump_data_version"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "name" = TG_ARGV[0];
  RETURN NULL;
END
$$;

CREATE TRIGGER "Post_version_write" AFTER INSERT OR DELETE OR TRUNCATE ON "Post"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('Post');

CREATE TRIGGER "Post_version_update" AFTER UPDATE OF "id", "boardId", "statusId", "postedById", "searchText" ON "Post"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('Post');

CREATE TRIGGER "Changelog_version_write" AFTER INSERT OR DELETE OR TRUNCATE ON "Changelog"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('Changelog');

CREATE TRIGGER "Changelog_version_update" AFTER UPDATE OF "id", "status", "searchText" ON "Changelog"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('Changelog');

CREATE TRIGGER "ChangelogLabel_version_write" AFTER INSERT OR DELETE OR UPDATE OR TRUNCATE ON "ChangelogLabel"
  FOR EACH STATEMENT EXECUTE FUNCTION "bump_data_version"('Changelog');
