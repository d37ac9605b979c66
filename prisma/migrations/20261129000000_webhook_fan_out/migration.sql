-- A change writes its webhook event as one row, naming the endpoints still to be given a
-- delivery of it; the dispatcher makes the deliveries (lib/webhooks/fan-out.ts). Events written
-- before this have their deliveries: none waits.
ALTER TABLE "WebhookMessage" ADD COLUMN "fanOut" TEXT;

-- Written by hand (Prisma's schema has no partial indexes): the few events waiting, among all
-- the others, without an entry for each of those. The dispatcher's query ("fanOut" > '')
-- implies the condition, so the planner takes the index for it.
CREATE INDEX "WebhookMessage_fanOut_idx" ON "WebhookMessage"("fanOut") WHERE "fanOut" IS NOT NULL;
