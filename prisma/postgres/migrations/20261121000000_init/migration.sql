-- CreateSchema
CREATE SCHEMA IF NOT EXISTS "public";

-- CreateTable
CREATE TABLE "Board" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,

    CONSTRAINT "Board_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PostStatus" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "color" TEXT NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "PostStatus_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "User" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "email" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "searchText" TEXT NOT NULL DEFAULT '',

    CONSTRAINT "User_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Post" (
    "seq" SERIAL NOT NULL,
    "id" TEXT COLLATE "C" NOT NULL,
    "title" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "searchText" TEXT NOT NULL,
    "boardId" TEXT NOT NULL,
    "statusId" TEXT,
    "postedById" TEXT NOT NULL,
    "upvotes" INTEGER NOT NULL DEFAULT 0,
    "commentCount" INTEGER NOT NULL DEFAULT 0,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Post_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "Comment" (
    "id" TEXT NOT NULL,
    "postId" TEXT NOT NULL,
    "postedById" TEXT NOT NULL,
    "commentDescription" TEXT NOT NULL,
    "pinned" BOOLEAN NOT NULL DEFAULT false,
    "pinnedAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Comment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Changelog" (
    "seq" SERIAL NOT NULL,
    "id" TEXT COLLATE "C" NOT NULL,
    "title" TEXT NOT NULL,
    "content" TEXT NOT NULL,
    "searchText" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "publishedAt" TIMESTAMP(3),
    "sortAt" TIMESTAMP(3) NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "updatedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Changelog_pkey" PRIMARY KEY ("seq")
);

-- CreateTable
CREATE TABLE "ChangelogLabel" (
    "changelogId" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "nameKey" TEXT NOT NULL,

    CONSTRAINT "ChangelogLabel_pkey" PRIMARY KEY ("changelogId","nameKey")
);

-- CreateTable
CREATE TABLE "ApiKey" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "prefix" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "scopes" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "lastUsedAt" TIMESTAMP(3),
    "revokedAt" TIMESTAMP(3),

    CONSTRAINT "ApiKey_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Session" (
    "id" TEXT NOT NULL,
    "tokenHash" TEXT NOT NULL,
    "apiKeyId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL DEFAULT CURRENT_TIMESTAMP,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Session_pkey" PRIMARY KEY ("id")
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

-- AddForeignKey
ALTER TABLE "Post" ADD CONSTRAINT "Post_boardId_fkey" FOREIGN KEY ("boardId") REFERENCES "Board"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Post" ADD CONSTRAINT "Post_statusId_fkey" FOREIGN KEY ("statusId") REFERENCES "PostStatus"("id") ON DELETE SET NULL ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Post" ADD CONSTRAINT "Post_postedById_fkey" FOREIGN KEY ("postedById") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Comment" ADD CONSTRAINT "Comment_postId_fkey" FOREIGN KEY ("postId") REFERENCES "Post"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Comment" ADD CONSTRAINT "Comment_postedById_fkey" FOREIGN KEY ("postedById") REFERENCES "User"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ChangelogLabel" ADD CONSTRAINT "ChangelogLabel_changelogId_fkey" FOREIGN KEY ("changelogId") REFERENCES "Changelog"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Session" ADD CONSTRAINT "Session_apiKeyId_fkey" FOREIGN KEY ("apiKeyId") REFERENCES "ApiKey"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Written by hand, not by Prisma. No semicolons in comments: @prisma/adapter-pg runs a
-- migration by splitting it on every semicolon.
-- * "Post"."id" and "Changelog"."id" use the "C" collation (above): they break ties in every
--   list, and bytewise order is what SQLite uses, so both engines list in the same order
--   whatever collation the database was created with.
-- * Substring search (lib/search.ts) is `"searchText" LIKE '%term%'` with every wildcard
--   escaped. pg_trgm's GIN operator class serves that from a trigram index, and the
--   executor rechecks each candidate, so results are exact for any term length.
CREATE EXTENSION IF NOT EXISTS pg_trgm;

CREATE INDEX "Post_searchText_trgm_idx" ON "Post" USING GIN ("searchText" gin_trgm_ops);

CREATE INDEX "Changelog_searchText_trgm_idx" ON "Changelog" USING GIN ("searchText" gin_trgm_ops);
