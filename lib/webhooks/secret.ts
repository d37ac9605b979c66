import "server-only";
import { randomBytes } from "node:crypto";

// Signing secrets as the Standard Webhooks specification writes them: whsec_ and the base64
// of 32 random bytes. The bytes are the HMAC key.

const PREFIX = "whsec_";

export function generateSecret(): string {
  return PREFIX + randomBytes(32).toString("base64");
}

/** The HMAC key a secret stands for. */
export function secretKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(PREFIX) ? secret.slice(PREFIX.length) : secret, "base64");
}
