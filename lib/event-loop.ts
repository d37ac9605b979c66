import { monitorEventLoopDelay } from "node:perf_hooks";
import { log } from "./log";

// A serving process's event loop, watched. Every request the process serves waits while one
// piece of work holds the loop (a synchronous query, a long JSON.stringify, a garbage
// collection), so a hold is what every other request pays at once. Node's event-loop delay
// histogram samples the loop with a timer; once a second the longest delay it saw is looked at,
// and past EVENT_LOOP_WARN_MS it is logged, with the process id (workers log apart). The
// benchmark sets a threshold of 1 ms and reads these lines to report each run's longest hold.

/** The warning's message; the benchmark finds the lines by it. */
export const EVENT_LOOP_HELD = "The event loop was held up";
/** How often the longest hold is looked at, and the histogram started over. */
export const EVENT_LOOP_CHECK_MS = 1000;
/** The histogram's timer, in ms. Its delays include this much, which is taken off. */
const RESOLUTION_MS = 10;

/** What a hold past the threshold does: log it (the tests look at what is reported). */
export type HoldReport = (longestMs: number, thresholdMs: number) => void;

const logHold: HoldReport = (longestMs, thresholdMs) => log("warn", EVENT_LOOP_HELD, { longestMs, thresholdMs, pid: process.pid });

/** Starts watching this process's event loop; returns a function that stops it. 0 watches nothing. */
export function watchEventLoop(thresholdMs: number, report: HoldReport = logHold): () => void {
  if (thresholdMs <= 0) return () => {};
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  const timer = setInterval(() => {
    const longestMs = heldMs(histogram.max);
    histogram.reset();
    if (longestMs >= thresholdMs) report(longestMs, thresholdMs);
  }, EVENT_LOOP_CHECK_MS);
  timer.unref();
  return () => {
    clearInterval(timer);
    histogram.disable();
  };
}

/** The longest hold, in whole ms, from the histogram's longest delay (ns; 0 before any sample). */
export const heldMs = (maxDelayNs: number) => Math.max(0, Math.round(maxDelayNs / 1e6 - RESOLUTION_MS));
