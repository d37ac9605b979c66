import "server-only";
import { logError } from "../log";
import { dispatchPass, type PassReport } from "./dispatch";

// The dispatcher's loop, wherever it runs (its own process started by server.ts, the server
// itself under `next start`, `feedback webhooks deliver`): a pass, then another shortly if that
// one sent anything or at once if a nudge came meanwhile, else a rest until the next poll or a
// nudge.

/**
 * After a pass that sent something, the next starts this much later, so that under a steady
 * stream of changes what arrives meanwhile goes out in one claim and one record instead of a
 * pair of writes per event: on SQLite those writes take the one write lock the requests need.
 */
const GATHER_MS = 100;

export interface Loop {
  /** Events are waiting: pass again now, or right after the pass under way. */
  nudge(): void;
  /** Stops claiming; `done` settles once the pass under way has recorded what it sent. */
  stop(): void;
  readonly done: Promise<void>;
}

export interface LoopOptions {
  pollMs: number;
  /** Whether the rest between passes keeps the process alive (a command) or not (a server). */
  keepAlive: boolean;
  onReport?: (report: PassReport) => void;
}

export function deliveryLoop({ pollMs, keepAlive, onReport }: LoopOptions): Loop {
  let stopped = false;
  let nudged = false;
  let wake: (() => void) | undefined;

  const rest = () =>
    new Promise<void>((resolve) => {
      if (nudged || stopped) return resolve();
      const timer = setTimeout(resolve, pollMs);
      if (!keepAlive) timer.unref();
      wake = () => {
        clearTimeout(timer);
        resolve();
      };
    }).finally(() => {
      wake = undefined;
    });

  const done = (async () => {
    while (!stopped) {
      nudged = false;
      try {
        const report = await dispatchPass({ stopping: () => stopped });
        onReport?.(report);
        // A pass that sent anything may have left more due (a backlog, events meanwhile).
        if (report.deliveries.length) {
          await new Promise((resolve) => (keepAlive ? setTimeout(resolve, GATHER_MS) : setTimeout(resolve, GATHER_MS).unref()));
          continue;
        }
      } catch (error) {
        logError(`Delivering webhooks failed; trying again in ${pollMs} ms`, error);
        nudged = false;
      }
      await rest();
    }
  })();

  return {
    nudge() {
      nudged = true;
      wake?.();
    },
    stop() {
      stopped = true;
      wake?.();
    },
    done,
  };
}
