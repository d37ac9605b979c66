import "server-only";
import { after } from "next/server";
import { env } from "../env";
import { logError } from "../log";
import { dispatchPass } from "./dispatch";
import { deliveryLoop, type Loop } from "./loop";
import { hasExternalDispatcher, nudgeExternal } from "./nudge";

// Where a server's webhooks are sent from. Under server.ts (npm start, the tests, the bench)
// the dispatcher is a process of its own, at a lower CPU priority (server.ts), so sending never
// takes CPU from requests; changes nudge it over IPC (lib/webhooks/nudge.ts). Under `next start`
// or `next dev` it is a loop in the server (lib/webhooks/loop.ts), kept on globalThis, where the
// instrumentation hook and the route handlers, bundled apart, both find it. On Vercel no process
// outlives a request: a change's events are sent after its answer, by the function still alive.

const globalForLoop = globalThis as unknown as { feedbackWebhookLoop?: Loop };

/** Starts the loop in this process, unless WEBHOOK_DISPATCH=false, on Vercel, or a dispatcher process runs. */
export function startDispatcher(): void {
  const config = env();
  if (!config.WEBHOOK_DISPATCH || config.VERCEL || hasExternalDispatcher() || globalForLoop.feedbackWebhookLoop) return;
  globalForLoop.feedbackWebhookLoop = deliveryLoop({ pollMs: config.WEBHOOK_POLL_MS, keepAlive: false });
}

export function stopDispatcher(): void {
  globalForLoop.feedbackWebhookLoop?.stop();
}

/**
 * After a change that enqueued these events, in its request: nudge the dispatcher, or where
 * none runs (Vercel) send them once the answer is out, in one pass limited to them. Nothing when
 * WEBHOOK_DISPATCH=false: the cron route or the command line delivers. A nudge costs the
 * request nothing measurable; Next.js's after() costs about 6% of a PUT's throughput, so it is
 * used only where it is needed.
 */
export function deliverSoon(messageIds: string[]): void {
  if (!messageIds.length || !env().WEBHOOK_DISPATCH) return;
  if (nudgeExternal()) return;
  const loop = globalForLoop.feedbackWebhookLoop;
  if (loop) {
    loop.nudge();
    return;
  }
  after(async () => {
    try {
      await dispatchPass({ messageIds });
    } catch (error) {
      logError("Delivering webhooks after a change failed; the next pass sends them", error);
    }
  });
}
