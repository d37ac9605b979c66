import "server-only";
import ipaddr from "ipaddr.js";
import { Agent } from "undici";
import { type AddressPolicy, assertPublicHost, guardedLookup, WebhookAddressError } from "./address";

// One POST of a webhook, on undici (half the CPU a request of node:http's client costs, about
// 30 µs against 60-80 on this machine, and the dispatcher makes one per delivery): no redirects
// (undici follows none unless asked), one deadline for the whole exchange, and the address
// checked again now, since DNS can change after the endpoint was made: an IP literal before
// connecting, a name inside the socket's own lookup, so the address that was checked is the
// address connected to.

/** The first bytes of an answer's body that the delivery log keeps. */
export const RESPONSE_BODY_LIMIT = 2048;

export const USER_AGENT = "feedback-service-webhooks/1.0";

export interface SendResult {
  /** The HTTP status, or null when no answer came (refused address, timeout, connection error). */
  statusCode: number | null;
  durationMs: number;
  responseBody: string | null;
  error: string | null;
}

/**
 * Keep-alive connections, up to 16 to each receiver, reused across deliveries; one agent per
 * address policy, since its connections resolve names through the policy's lookup. An idle
 * connection does not keep the command line from exiting (undici unrefs it).
 */
const agents = new Map<boolean, Agent>();

function agentFor(policy: AddressPolicy): Agent {
  let agent = agents.get(policy.allowPrivate);
  if (!agent) {
    agent = new Agent({ connections: 16, connect: { lookup: guardedLookup(policy) } });
    agents.set(policy.allowPrivate, agent);
  }
  return agent;
}

/** Text the database can store: PostgreSQL refuses NUL in text. */
const storable = (text: string) => text.replaceAll("\0", "\uFFFD");

/** The first `limit` bytes of a body as text; the rest is neither kept nor waited for. */
async function firstBytes(body: AsyncIterable<Buffer>, limit: number): Promise<string> {
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    // Leaving the loop early (break) destroys the body, and with it the connection.
    for await (const chunk of body) {
      chunks.push(chunk);
      size += chunk.length;
      if (size >= limit) break;
    }
  } catch {
    // An answer cut short keeps what came of it.
  }
  return Buffer.concat(chunks).subarray(0, limit).toString("utf8");
}

function reason(error: unknown): string {
  if (error instanceof WebhookAddressError) return `refused: ${error.message}`;
  const { code, message } = error as NodeJS.ErrnoException;
  return `${code ? `${code}: ` : ""}${message}`;
}

export async function postWebhook(
  url: URL,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs: number; policy: AddressPolicy },
): Promise<SendResult> {
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  const host = url.hostname.replace(/^\[(.*)\]$/, "$1");
  if (ipaddr.isValid(host)) {
    try {
      await assertPublicHost(url, options.policy);
    } catch (error) {
      if (error instanceof WebhookAddressError) return { statusCode: null, durationMs: elapsed(), responseBody: null, error: reason(error) };
      throw error;
    }
  }
  const deadline = new AbortController();
  const timer = setTimeout(() => deadline.abort(), options.timeoutMs);
  const timedOut = () => ({ statusCode: null, durationMs: elapsed(), responseBody: null, error: `timed out after ${options.timeoutMs} ms` });
  try {
    const response = await agentFor(options.policy).request({
      origin: url.origin,
      path: `${url.pathname}${url.search}`,
      method: "POST",
      headers: { ...headers, "content-type": "application/json", "user-agent": USER_AGENT },
      body,
      signal: deadline.signal,
    });
    const text = await firstBytes(response.body, RESPONSE_BODY_LIMIT);
    if (deadline.signal.aborted) return timedOut();
    return { statusCode: response.statusCode, durationMs: elapsed(), responseBody: storable(text), error: null };
  } catch (error) {
    if (deadline.signal.aborted) return timedOut();
    return { statusCode: null, durationMs: elapsed(), responseBody: null, error: reason(error) };
  } finally {
    clearTimeout(timer);
  }
}
