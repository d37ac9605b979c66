-- The audit trail, comment revisions and the comment's version (issue: accountable moderation).
-- From `prisma migrate diff`, with one change: event ids compare bytewise (COLLATE "C"), as on
-- SQLite, so newest-first order and the cursor are the same on both engines.
-- AlterTable
ALTER TABLE "Comment" ADD COLUMN     "version" INTEGER NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "CommentRevision" (
    "commentId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "commentDescription" TEXT NOT NULL,
    "pinned" BOOLEAN NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "actorKeyId" TEXT,
    "actorName" TEXT NOT NULL,
    "via" TEXT NOT NULL,

    CONSTRAINT "CommentRevision_pkey" PRIMARY KEY ("commentId","version")
);

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" TEXT COLLATE "C" NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "actorKeyId" TEXT,
    "actorName" TEXT NOT NULL,
    "via" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "resourceType" TEXT NOT NULL,
    "resourceId" TEXT,
    "changes" TEXT NOT NULL,
    "requestId" TEXT,
    "ip" TEXT,
    "userAgent" TEXT,

    CONSTRAINT "AuditEvent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "AuditEvent_action_id_idx" ON "AuditEvent"("action", "id");

-- CreateIndex
CREATE INDEX "AuditEvent_resourceType_resourceId_id_idx" ON "AuditEvent"("resourceType", "resourceId", "id");

-- CreateIndex
CREATE INDEX "AuditEvent_actorKeyId_id_idx" ON "AuditEvent"("actorKeyId", "id");

-- CreateIndex
CREATE INDEX "AuditEvent_createdAt_idx" ON "AuditEvent"("createdAt");

-- AddForeignKey
ALTER TABLE "CommentRevision" ADD CONSTRAINT "CommentRevision_commentId_fkey" FOREIGN KEY ("commentId") REFERENCES "Comment"("id") ON DELETE CASCADE ON UPDATE CASCADE;

