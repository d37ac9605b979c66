// `feedback webhooks deliver [--once]`: the dispatcher from the command line. One pass with
// --once (for a crontab); else a pass every WEBHOOK_POLL_MS until Ctrl-C or SIGTERM. Each
// delivery goes to stdout as one line; logs go to stderr. server.ts runs it as its dispatcher
// process, over an IPC channel: a message there is a nudge (events are waiting), and the
// channel closing means the server is gone, so this process ends too.
import { parseArgs } from "node:util";
import { env } from "../lib/env";
import { log } from "../lib/log";
import { type DeliveryReport, dispatchPass, type PassReport } from "../lib/webhooks/dispatch";
import { deliveryLoop } from "../lib/webhooks/loop";
import { NUDGE_MESSAGE } from "../lib/webhooks/nudge";

const line = (d: DeliveryReport) =>
  [
    d.outcome,
    d.type,
    d.messageId,
    `endpoint ${d.endpointId}`,
    `attempt ${d.attempt}`,
    d.statusCode === null ? "no answer" : `HTTP ${d.statusCode}`,
    `${d.durationMs} ms`,
    ...(d.error ? [d.error] : []),
    ...(d.nextAttemptAt ? [`next at ${d.nextAttemptAt}`] : []),
  ].join("  ");

export async function deliverCommand(args: string[], out: (line: string) => void, info: (line: string) => void): Promise<void> {
  const { values } = parseArgs({ args, options: { once: { type: "boolean", default: false } } });
  const print = (report: PassReport) => {
    for (const delivery of report.deliveries) out(line(delivery));
    for (const endpoint of report.disabled) info(`endpoint ${endpoint} disabled: every delivery failed for 3 days`);
  };
  if (values.once) {
    const report = await dispatchPass();
    print(report);
    if (!report.deliveries.length) info("Nothing was due.");
    return;
  }
  const pollMs = env().WEBHOOK_POLL_MS;
  let passes = 0;
  const loop = deliveryLoop({
    pollMs,
    keepAlive: true,
    onReport: (report) => {
      print(report);
      // The server's dispatcher says when it has caught up with what was due at its start: from
      // then on, a change reaches it by a nudge.
      if (passes++ === 0 && process.send) log("info", "The webhook dispatcher is waiting for changes", { pid: process.pid, pollMs });
    },
  });
  process.once("SIGINT", loop.stop);
  process.once("SIGTERM", loop.stop);
  if (process.send) {
    process.on("message", (message) => {
      if (message === NUDGE_MESSAGE) loop.nudge();
    });
    process.once("disconnect", loop.stop);
    // A server that failed to start (its port taken, no build) may have ended while this process
    // was loading: its channel closed before anything listened, and nothing else would stop it.
    if (!process.connected) loop.stop();
  } else {
    info(`Delivering webhooks every ${pollMs} ms; Ctrl-C stops.`);
  }
  await loop.done;
}
