-- CreateTable
CREATE TABLE "DataVersion" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "version" BIGINT NOT NULL DEFAULT 0
);

-- Written by hand: a version per table, moved by every write that can change a list's total
-- (lib/totals.ts). Writes that cannot (upvotes, commentCount, timestamps) leave it alone.
INSERT INTO "DataVersion" ("name", "version") VALUES ('Post', 0), ('Changelog', 0);

CREATE TRIGGER "Post_version_insert" AFTER INSERT ON "Post" BEGIN
  UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "name" = 'Post';
END;

CREATE TRIGGER "Post_version_delete" AFTER DELETE ON "Post" BEGIN
  UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "name" = 'Post';
END;

CREATE TRIGGER "Post_version_update" AFTER UPDATE OF "id", "boardId", "statusId", "postedById", "searchText" ON "Post" BEGIN
  UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "name" = 'Post';
END;

CREATE TRIGGER "Changelog_version_insert" AFTER INSERT ON "Changelog" BEGIN
  UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "name" = 'Changelog';
END;

CREATE TRIGGER "Changelog_version_delete" AFTER DELETE ON "Changelog" BEGIN
  UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "name" = 'Changelog';
END;

CREATE TRIGGER "Changelog_version_update" AFTER UPDATE OF "id", "status", "searchText" ON "Changelog" BEGIN
  UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "name" = 'Changelog';
END;

CREATE TRIGGER "ChangelogLabel_version_insert" AFTER INSERT ON "ChangelogLabel" BEGIN
  UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "name" = 'Changelog';
END;

CREATE TRIGGER "ChangelogLabel_version_delete" AFTER DELETE ON "ChangelogLabel" BEGIN
  UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "name" = 'Changelog';
END;

CREATE TRIGGER "ChangelogLabel_version_update" AFTER UPDATE ON "ChangelogLabel" BEGIN
  UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "name" = 'Changelog';
END;
