-- Written by hand: the changelog list's order's ranks (lib/sqlite/ranks.ts) belong to the
-- Changelog version, so it also moves when the order's time changes (sortAt), as the Post
-- version does for upvotes and createdAt (the positions_follow_order migration).
DROP TRIGGER "Changelog_version_update";

CREATE TRIGGER "Changelog_version_update" AFTER UPDATE OF "id", "status", "searchText", "sortAt" ON "Changelog" BEGIN
  UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "name" = 'Changelog';
END;
