// `feedback webhooks deliver [--once]`: the dispatcher from the command line. One pass with
// --once (for a crontab); else a pass every WEBHOOK_POLL_MS until Ctrl-C or SIGTERM. Each
// delivery goes to stdout as one line; logs go to stderr.
import { parseArgs } from "node:util";
import { env } from "../lib/env";
import { type DeliveryReport, dispatchPass } from "../lib/webhooks/dispatch";

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
  let stopping = false;
  const pass = async () => {
    const report = await dispatchPass({ stopping: () => stopping });
    for (const delivery of report.deliveries) out(line(delivery));
    for (const endpoint of report.disabled) info(`endpoint ${endpoint} disabled: every delivery failed for 3 days`);
    return report;
  };
  if (values.once) {
    const report = await pass();
    if (!report.deliveries.length) info("Nothing was due.");
    return;
  }
  const pollMs = env().WEBHOOK_POLL_MS;
  let wake: (() => void) | undefined;
  const stop = () => {
    stopping = true;
    wake?.();
  };
  process.once("SIGINT", stop);
  process.once("SIGTERM", stop);
  info(`Delivering webhooks every ${pollMs} ms; Ctrl-C stops.`);
  while (!stopping) {
    const report = await pass();
    // More may be due at once (a backlog); otherwise wait for the next poll.
    if (report.deliveries.length) continue;
    await new Promise<void>((resolve) => {
      wake = resolve;
      setTimeout(resolve, pollMs);
    });
  }
}
