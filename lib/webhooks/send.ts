import "server-only";
import http from "node:http";
import https from "node:https";
import ipaddr from "ipaddr.js";
import { type AddressPolicy, assertPublicHost, guardedLookup, WebhookAddressError } from "./address";

// One POST of a webhook: no redirects (node:http follows none), one deadline for the whole
// exchange, and the address checked again now, since DNS can change after the endpoint was
// made: an IP literal before connecting, a name inside the socket's own lookup, so the address
// that was checked is the address connected to.

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

// Keep-alive sockets to the same receiver are reused; a free one is unref'd by Node, so it
// never keeps the command line from exiting.
const agents = { "http:": new http.Agent({ keepAlive: true, maxSockets: 16 }), "https:": new https.Agent({ keepAlive: true, maxSockets: 16 }) };

/** Text the database can store: PostgreSQL refuses NUL in text. */
const storable = (text: string) => text.replaceAll("\0", "\uFFFD");

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
      if (error instanceof WebhookAddressError) return { statusCode: null, durationMs: elapsed(), responseBody: null, error: `refused: ${error.message}` };
      throw error;
    }
  }
  const payload = Buffer.from(body, "utf8");
  const transport = url.protocol === "https:" ? https : http;
  return new Promise<SendResult>((resolve) => {
    let settled = false;
    const finish = (result: Omit<SendResult, "durationMs">) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve({ ...result, durationMs: elapsed() });
    };
    const request = transport.request(url, {
      method: "POST",
      agent: agents[url.protocol as "http:" | "https:"],
      lookup: guardedLookup(options.policy),
      headers: {
        ...headers,
        "content-type": "application/json",
        "content-length": String(payload.length),
        "user-agent": USER_AGENT,
      },
    });
    const timer = setTimeout(() => {
      finish({ statusCode: null, responseBody: null, error: `timed out after ${options.timeoutMs} ms` });
      request.destroy();
    }, options.timeoutMs);
    request.on("error", (error: NodeJS.ErrnoException) => {
      const reason = error instanceof WebhookAddressError ? `refused: ${error.message}` : `${error.code ? `${error.code}: ` : ""}${error.message}`;
      finish({ statusCode: null, responseBody: null, error: reason });
    });
    request.on("response", (response) => {
      const chunks: Buffer[] = [];
      let size = 0;
      const done = () => {
        const text = Buffer.concat(chunks).subarray(0, RESPONSE_BODY_LIMIT).toString("utf8");
        finish({ statusCode: response.statusCode ?? null, responseBody: storable(text), error: null });
      };
      response.on("data", (chunk: Buffer) => {
        if (size >= RESPONSE_BODY_LIMIT) return;
        chunks.push(chunk);
        size += chunk.length;
        // The rest of a long answer is not kept, so it is not waited for either.
        if (size >= RESPONSE_BODY_LIMIT) {
          done();
          response.destroy();
        }
      });
      response.on("end", done);
      response.on("error", done);
    });
    request.end(payload);
  });
}
