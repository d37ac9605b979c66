import "server-only";
import { env } from "../env";
import { logError } from "../log";
import { dispatchPass } from "./dispatch";

// Where the dispatcher runs inside the server: a loop that polls for due deliveries every
// WEBHOOK_POLL_MS and is nudged when a change in this process enqueues events, so those go out
// at once instead of at the next poll. Its timer never keeps the process alive; on shutdown it
// stops claiming, and a send cut off by the exit is taken again once its lease runs out.
// Route handlers and the instrumentation hook are bundled apart, so the running loop is kept
// on globalThis, where both find it.

interface Loop {
  nudge(): void;
  stop(): void;
}

const globalForLoop = globalThis as unknown as { feedbackWebhookLoop?: Loop };

/** Starts the loop, unless WEBHOOK_DISPATCH=false or on Vercel (no process outlives a request there). */
export function startDispatcher(): void {
  const config = env();
  if (!config.WEBHOOK_DISPATCH || config.VERCEL || globalForLoop.feedbackWebhookLoop) return;
  let timer: NodeJS.Timeout | undefined;
  let running = false;
  let again = false;
  let stopped = false;

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void run(), config.WEBHOOK_POLL_MS);
    timer.unref();
  };

  const run = async () => {
    if (stopped) return;
    if (running) {
      again = true;
      return;
    }
    running = true;
    clearTimeout(timer);
    try {
      do {
        again = false;
        const report = await dispatchPass({ stopping: () => stopped });
        // A pass that sent anything may have left more due (a backlog, a nudge meanwhile).
        again ||= report.deliveries.length > 0;
      } while (again && !stopped);
    } catch (error) {
      logError(`Delivering webhooks failed; trying again in ${config.WEBHOOK_POLL_MS} ms`, error);
    } finally {
      running = false;
      schedule();
    }
  };

  globalForLoop.feedbackWebhookLoop = {
    nudge: () => void run(),
    stop: () => {
      stopped = true;
      clearTimeout(timer);
    },
  };
  schedule();
}

export function stopDispatcher(): void {
  globalForLoop.feedbackWebhookLoop?.stop();
}

/**
 * After a change that enqueued these events: nudge this process's loop, or, where none runs
 * (Vercel), send them now, in one pass limited to them. Nothing when WEBHOOK_DISPATCH=false:
 * the cron route or the command line delivers.
 */
export async function deliverSoon(messageIds: string[]): Promise<void> {
  if (!messageIds.length || !env().WEBHOOK_DISPATCH) return;
  const loop = globalForLoop.feedbackWebhookLoop;
  if (loop) {
    loop.nudge();
    return;
  }
  try {
    await dispatchPass({ messageIds });
  } catch (error) {
    logError("Delivering webhooks after a change failed; the next pass sends them", error);
  }
}
