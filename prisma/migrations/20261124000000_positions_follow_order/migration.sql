-- Written by hand: remembered positions in a sort order (lib/positions.ts) belong to the Post
-- version too, so it also moves when a column of a sort order changes (upvotes, createdAt).
DROP TRIGGER "Post_version_update";

CREATE TRIGGER "Post_version_update" AFTER UPDATE OF "id", "boardId", "statusId", "postedById", "searchText", "upvotes", "createdAt" ON "Post" BEGIN
  UPDATE "DataVersion" SET "version" = "version" + 1 WHERE "name" = 'Post';
END;
