import "server-only";
import { createHmac } from "node:crypto";
import { secretKey } from "./secret";

// Standard Webhooks signatures: `v1,` and the base64 HMAC-SHA256 of `id.timestamp.body`, one
// per secret, space-separated (two while a rotated-out secret still signs).

/** The webhook-signature header for a message, signed with every given secret. */
export function signatureHeader(secrets: readonly string[], id: string, timestampSeconds: number, body: string): string {
  return secrets
    .map((secret) => `v1,${createHmac("sha256", secretKey(secret)).update(`${id}.${timestampSeconds}.${body}`).digest("base64")}`)
    .join(" ");
}

/** The three headers of a delivery, besides content-type. */
export function webhookHeaders(secrets: readonly string[], id: string, at: Date, body: string): Record<string, string> {
  const timestamp = Math.floor(at.getTime() / 1000);
  return {
    "webhook-id": id,
    "webhook-timestamp": String(timestamp),
    "webhook-signature": signatureHeader(secrets, id, timestamp, body),
  };
}
