// Manages webhook endpoints through the data layer (lib/webhooks/endpoints.ts) for API tests,
// as the command line will: run with DATABASE_URL set, one operation per process, its answer
// as JSON on stdout. `create URL EVENTS`, `rotate ID`, `disable ID`, `test ID`, and `pass LIMIT`
// (one dispatcher pass taking at most LIMIT deliveries; its report).
import { cliActor } from "../../lib/audit/record";
import { closeConnections, db } from "../../lib/db";
import { dispatchPass } from "../../lib/webhooks/dispatch";
import { createEndpoint, rotateSecret, sendTest, updateEndpoint } from "../../lib/webhooks/endpoints";
import type { WebhookEventType } from "../../lib/webhooks/events";

async function main([operation, target = "", events = ""]: string[]): Promise<unknown> {
  const context = { actor: cliActor() };
  switch (operation) {
    case "create":
      return createEndpoint({ url: target, events: events.split(",") as WebhookEventType[] }, context);
    case "rotate":
      return rotateSecret(target, context);
    case "disable":
      return updateEndpoint(target, { enabled: false }, context);
    case "test":
      return { messageId: await sendTest(target, context) };
    case "pass":
      return dispatchPass({ limit: Number(target) });
    default:
      throw new Error(`unknown operation ${operation}`);
  }
}

main(process.argv.slice(2))
  .then((answer) => process.stdout.write(`${JSON.stringify(answer)}\n`))
  .finally(() => Promise.all([db.$disconnect(), closeConnections()]));
