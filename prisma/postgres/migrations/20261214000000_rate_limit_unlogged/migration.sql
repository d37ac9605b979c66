-- Rate-limit counters (lib/api/rate-limit.ts) need not outlive a crash, and every request writes
-- one. An unlogged table writes no WAL, so that count commits without waiting for a flush of the
-- log to disk. After a crash PostgreSQL empties the table and each counter starts a new minute;
-- a standby does not receive it, and the service reads it on the primary alone.
ALTER TABLE "RateLimit" SET UNLOGGED;
