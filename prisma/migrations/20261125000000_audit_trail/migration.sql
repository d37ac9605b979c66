-- The audit trail, comment revisions and the comment's version (issue: accountable moderation).
-- Written from `prisma migrate diff`, except that the version column is added in place: the
-- diff rebuilds the whole Comment table (a copy of every comment, and its triggers dropped).
ALTER TABLE "Comment" ADD COLUMN "version" INTEGER NOT NULL DEFAULT 1;

-- CreateTable
CREATE TABLE "CommentRevision" (
    "commentId" TEXT NOT NULL,
    "version" INTEGER NOT NULL,
    "commentDescription" TEXT NOT NULL,
    "pinned" BOOLEAN NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "actorKeyId" TEXT,
    "actorName" TEXT NOT NULL,
    "via" TEXT NOT NULL,

    PRIMARY KEY ("commentId", "version"),
    CONSTRAINT "CommentRevision_commentId_fkey" FOREIGN KEY ("commentId") REFERENCES "Comment" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "AuditEvent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "createdAt" DATETIME NOT NULL,
    "actorKeyId" TEXT,
    "actorName" TEXT NOT NULL,
    "via" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "resourceType" TEXT NOT NULL,
    "resourceId" TEXT,
    "changes" TEXT NOT NULL,
    "requestId" TEXT,
    "ip" TEXT,
    "userAgent" TEXT
);

-- CreateIndex
CREATE INDEX "AuditEvent_action_id_idx" ON "AuditEvent"("action", "id");

-- CreateIndex
CREATE INDEX "AuditEvent_resourceType_resourceId_id_idx" ON "AuditEvent"("resourceType", "resourceId", "id");

-- CreateIndex
CREATE INDEX "AuditEvent_actorKeyId_id_idx" ON "AuditEvent"("actorKeyId", "id");

-- CreateIndex
CREATE INDEX "AuditEvent_createdAt_idx" ON "AuditEvent"("createdAt");

