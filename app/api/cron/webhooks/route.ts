// POST /api/cron/webhooks - one webhook delivery pass, for a scheduler holding CRON_SECRET
// (GET too: Vercel Cron calls a path with GET)
import { cronPass } from "@/lib/webhooks/cron";

export const dynamic = "force-dynamic";

export const POST = cronPass;
export const GET = cronPass;
