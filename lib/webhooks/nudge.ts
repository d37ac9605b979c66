// How a change in a serving process tells the dispatcher that events are waiting, when the
// dispatcher runs in a process of its own (server.ts starts it): a message over the IPC channel,
// from the single process straight to the dispatcher, or from a worker through its primary. The
// serving process sets the way before Next.js loads, and route handlers find it on globalThis
// (they are bundled apart). server.ts loads this module, so it imports nothing of the server's.

/** The IPC message that wakes the dispatcher. */
export const NUDGE_MESSAGE = "feedback:webhooks:nudge";

/**
 * Nudges that close together go as one: the dispatcher's next pass takes every event due by
 * then, so a burst of changes costs one message per window instead of one each.
 */
export const NUDGE_WINDOW_MS = 10;

const slot = globalThis as unknown as { feedbackWebhookNudge?: () => void };

/** Sets how this process nudges a dispatcher running elsewhere. */
export function setNudge(send: (message: string) => void): void {
  let timer: NodeJS.Timeout | undefined;
  slot.feedbackWebhookNudge = () => {
    if (timer) return;
    timer = setTimeout(() => {
      timer = undefined;
      send(NUDGE_MESSAGE);
    }, NUDGE_WINDOW_MS);
    timer.unref();
  };
}

/** Whether a dispatcher runs in another process, and this process can nudge it. */
export const hasExternalDispatcher = () => slot.feedbackWebhookNudge !== undefined;

/** Nudges the dispatcher of another process; false when there is none. */
export function nudgeExternal(): boolean {
  if (!slot.feedbackWebhookNudge) return false;
  slot.feedbackWebhookNudge();
  return true;
}
