-- CreateTable
CREATE TABLE "Board" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP
);

-- CreateTable
CREATE TABLE "PostStatus" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "color" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0
);

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "email" TEXT,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "searchText" TEXT NOT NULL DEFAULT ''
);

-- CreateTable
CREATE TABLE "Post" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "searchText" TEXT NOT NULL,
    "boardId" TEXT NOT NULL,
    "statusId" TEXT,
    "postedById" TEXT NOT NULL,
    "upvotes" INTEGER NOT NULL DEFAULT 0,
    "commentCount" INTEGER NOT NULL DEFAULT 0,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Post_boardId_fkey" FOREIGN KEY ("boardId") REFERENCES "Board" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Post_statusId_fkey" FOREIGN KEY ("statusId") REFERENCES "PostStatus" ("id") ON DELETE SET NULL ON UPDATE CASCADE,
    CONSTRAINT "Post_postedById_fkey" FOREIGN KEY ("postedById") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Comment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "postId" TEXT NOT NULL,
    "postedById" TEXT NOT NULL,
    "commentDescription" TEXT NOT NULL,
    "pinned" BOOLEAN NOT NULL DEFAULT false,
    "pinnedAt" DATETIME,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Comment_postId_fkey" FOREIGN KEY ("postId") REFERENCES "Post" ("id") ON DELETE RESTRICT ON UPDATE CASCADE,
    CONSTRAINT "Comment_postedById_fkey" FOREIGN KEY ("postedById") REFERENCES "User" ("id") ON DELETE RESTRICT ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Changelog" (
    "seq" INTEGER NOT NULL PRIMARY KEY AUTOINCREMENT,
    "id" TEXT NOT NULL,
    "title" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "searchText" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "publishedAt" DATETIME,
    "sortAt" DATETIME NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "ChangelogLabel" (
    "changelogId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,

    PRIMARY KEY ("changelogId", "nameKey"),
    CONSTRAINT "ChangelogLabel_changelogId_fkey" FOREIGN KEY ("changelogId") REFERENCES "Changelog" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" DATETIME,
    "revokedAt" DATETIME
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "tokenHash" TEXT NOT NULL,
    "apiKeyId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" DATETIME NOT NULL,
    CONSTRAINT "Session_apiKeyId_fkey" FOREIGN KEY ("apiKeyId") REFERENCES "ApiKey" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "User_email_key" ON "User"("email");

-- CreateIndex
CREATE UNIQUE INDEX "Post_id_key" ON "Post"("id");

-- CreateIndex
CREATE INDEX "Post_createdAt_id_idx" ON "Post"("createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Post_upvotes_createdAt_id_idx" ON "Post"("upvotes" DESC, "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Post_boardId_createdAt_id_idx" ON "Post"("boardId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Post_boardId_upvotes_createdAt_id_idx" ON "Post"("boardId", "upvotes" DESC, "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Post_boardId_statusId_createdAt_id_idx" ON "Post"("boardId", "statusId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Post_statusId_createdAt_id_idx" ON "Post"("statusId", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Post_statusId_upvotes_createdAt_id_idx" ON "Post"("statusId", "upvotes" DESC, "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Post_postedById_createdAt_id_idx" ON "Post"("postedById", "createdAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "Comment_postId_pinned_createdAt_id_idx" ON "Comment"("postId", "pinned" DESC, "createdAt", "id");

-- CreateIndex
CREATE INDEX "Comment_postedById_idx" ON "Comment"("postedById");

-- CreateIndex
CREATE UNIQUE INDEX "Changelog_id_key" ON "Changelog"("id");

-- CreateIndex
CREATE INDEX "Changelog_status_sortAt_id_idx" ON "Changelog"("status", "sortAt" DESC, "id" DESC);

-- CreateIndex
CREATE INDEX "ChangelogLabel_nameKey_changelogId_idx" ON "ChangelogLabel"("nameKey", "changelogId");

-- CreateIndex
CREATE UNIQUE INDEX "ApiKey_hash_key" ON "ApiKey"("hash");

-- CreateIndex
CREATE UNIQUE INDEX "Session_tokenHash_key" ON "Session"("tokenHash");

-- CreateIndex
CREATE INDEX "Session_apiKeyId_idx" ON "Session"("apiKeyId");


-- Substring search: trigram full-text indexes over the folded search text (see
-- lib/search.ts). External-content tables keyed by the integer "seq", kept in step by triggers,
-- so every write path (API, import, seed) updates them without knowing they exist.
CREATE VIRTUAL TABLE "PostSearch" USING fts5("searchText", content='Post', content_rowid='seq', tokenize='trigram case_sensitive 1');

CREATE TRIGGER "Post_search_insert" AFTER INSERT ON "Post" BEGIN
  INSERT INTO "PostSearch"(rowid, "searchText") VALUES (new."seq", new."searchText");
END;

CREATE TRIGGER "Post_search_delete" AFTER DELETE ON "Post" BEGIN
  INSERT INTO "PostSearch"("PostSearch", rowid, "searchText") VALUES ('delete', old."seq", old."searchText");
END;

CREATE TRIGGER "Post_search_update" AFTER UPDATE OF "searchText" ON "Post" BEGIN
  INSERT INTO "PostSearch"("PostSearch", rowid, "searchText") VALUES ('delete', old."seq", old."searchText");
  INSERT INTO "PostSearch"(rowid, "searchText") VALUES (new."seq", new."searchText");
END;

CREATE VIRTUAL TABLE "ChangelogSearch" USING fts5("searchText", content='Changelog', content_rowid='seq', tokenize='trigram case_sensitive 1');

CREATE TRIGGER "Changelog_search_insert" AFTER INSERT ON "Changelog" BEGIN
  INSERT INTO "ChangelogSearch"(rowid, "searchText") VALUES (new."seq", new."searchText");
END;

CREATE TRIGGER "Changelog_search_delete" AFTER DELETE ON "Changelog" BEGIN
  INSERT INTO "ChangelogSearch"("ChangelogSearch", rowid, "searchText") VALUES ('delete', old."seq", old."searchText");
END;

CREATE TRIGGER "Changelog_search_update" AFTER UPDATE OF "searchText" ON "Changelog" BEGIN
  INSERT INTO "ChangelogSearch"("ChangelogSearch", rowid, "searchText") VALUES ('delete', old."seq", old."searchText");
  INSERT INTO "ChangelogSearch"(rowid, "searchText") VALUES (new."seq", new."searchText");
END;
