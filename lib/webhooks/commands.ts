import "server-only";
import { parseArgs } from "node:util";
import { ApiError } from "../api/errors";
import { cliActor } from "../audit/record";
import { createEndpoint, listEndpoints, removeEndpoint, rotateSecret, sendTest, updateEndpoint } from "./endpoints";
import { createWebhookBody } from "./schemas";

// `feedback webhooks add|list|disable|enable|remove|rotate-secret|test`: the command line's
// management of endpoints, over the same data layer as the API, audited as the operator at the
// shell. A secret goes alone to stdout; everything else goes to stderr.

export interface CommandIo {
  out: (line: string) => void;
  info: (line: string) => void;
  /** An error that tells the operator to read the usage. */
  usage: (message: string) => Error;
  table: (rows: string[][]) => string;
}

export const WEBHOOK_USAGE = `  webhooks add --url URL --events a,b [--description TEXT]
                                            add an endpoint and print its signing secret (shown once)
  webhooks list [--json]                    list endpoints (never their secrets)
  webhooks disable ID / enable ID           stop or resume deliveries to an endpoint
  webhooks remove ID                        remove an endpoint with its delivery log
  webhooks rotate-secret ID                 print a new secret; the old one signs beside it for 24 hours
  webhooks test ID                          queue a webhook.test event for the endpoint`;

/** A refusal from the data layer, as one line naming the flag. */
function reason(error: ApiError): string {
  const detail = error.details?.[0];
  return detail ? `--${detail.field}: ${detail.message}` : error.message;
}

function oneId(args: string[], command: string, io: CommandIo): string {
  const { positionals } = parseArgs({ args, options: {}, allowPositionals: true });
  if (positionals.length !== 1) throw io.usage(`webhooks ${command} needs exactly one webhook ID (see webhooks list)`);
  return positionals[0] as string;
}

async function add(args: string[], io: CommandIo): Promise<void> {
  const { values } = parseArgs({ args, options: { url: { type: "string" }, events: { type: "string" }, description: { type: "string" } } });
  if (values.url === undefined || values.events === undefined) throw io.usage("webhooks add needs --url URL and --events a,b");
  const parsed = createWebhookBody.safeParse({ url: values.url, events: [values.events], description: values.description });
  if (!parsed.success) throw io.usage(parsed.error.issues.map((i) => `--${String(i.path[0])}: ${i.message}`).join("; "));
  const created = await createEndpoint(parsed.data, { actor: cliActor() });
  io.info(`Added webhook ${created.id} for ${created.url} (${created.events.join(", ")}). Its signing secret is shown once; store it now.`);
  io.out(created.secret);
}

async function list(args: string[], io: CommandIo): Promise<void> {
  const { values } = parseArgs({ args, options: { json: { type: "boolean" } } });
  const endpoints = await listEndpoints();
  if (values.json) {
    io.out(JSON.stringify(endpoints));
    return;
  }
  const state = (e: (typeof endpoints)[number]) =>
    e.enabled ? (e.failingSince ? `failing since ${e.failingSince}` : "enabled") : `disabled (${e.disabledReason ?? "manual"})`;
  io.out(
    io.table([
      ["ID", "URL", "EVENTS", "STATE", "DESCRIPTION", "CREATED"],
      ...endpoints.map((e) => [e.id, e.url, e.events.join(","), state(e), e.description || "-", e.createdAt]),
    ]),
  );
}

export async function webhooksCommand(args: string[], io: CommandIo): Promise<void> {
  const [sub, ...rest] = args;
  const context = () => ({ actor: cliActor() });
  try {
    switch (sub) {
      case "add":
        return await add(rest, io);
      case "list":
        return await list(rest, io);
      case "disable":
      case "enable": {
        const id = oneId(rest, sub, io);
        const after = await updateEndpoint(id, { enabled: sub === "enable" }, context());
        io.info(`Webhook ${after.id} is ${after.enabled ? "enabled" : "disabled"}.`);
        return;
      }
      case "remove": {
        const id = oneId(rest, sub, io);
        await removeEndpoint(id, context());
        io.info(`Removed webhook ${id} and its delivery log.`);
        return;
      }
      case "rotate-secret": {
        const rotated = await rotateSecret(oneId(rest, sub, io), context());
        io.info(
          `New secret for webhook ${rotated.id}, shown once; the old one keeps signing beside it until ${rotated.previousSecretExpiresAt}.`,
        );
        io.out(rotated.secret);
        return;
      }
      case "test": {
        const id = oneId(rest, sub, io);
        const eventId = await sendTest(id, context());
        io.info(`Queued a webhook.test event (${eventId}) for webhook ${id}.`);
        return;
      }
      default:
        throw io.usage("webhooks takes add, list, disable, enable, remove, rotate-secret or test");
    }
  } catch (error) {
    if (error instanceof ApiError) throw new Error(reason(error));
    throw error;
  }
}
