-- A change writes its webhook event as one row, naming the endpoints still to be given a
-- delivery of it; the dispatcher makes the deliveries (lib/webhooks/fan-out.ts). From
-- `prisma migrate diff`. Events written before this have their deliveries: none is pending.
-- AlterTable
ALTER TABLE "WebhookMessage" ADD COLUMN "fanOut" TEXT;

-- CreateIndex
CREATE INDEX "WebhookMessage_fanOut_idx" ON "WebhookMessage"("fanOut");
