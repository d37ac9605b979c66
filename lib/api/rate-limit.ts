import { env } from "../env";
import { ApiError } from "./errors";

// A token bucket per API key, in this process's memory: the bucket holds a minute's worth of
// requests and refills continuously. One bucket per key, whichever way the key is presented.

interface Bucket {
  tokens: number;
  at: number;
}

const buckets = new Map<string, Bucket>();

/** Takes one request from the key's bucket; returns the RateLimit headers, or throws 429. */
export function takeToken(keyId: string, now = Date.now()): Record<string, string> {
  const perMinute = env().RATE_LIMIT_PER_MINUTE;
  if (perMinute === 0) return {};
  const bucket = buckets.get(keyId) ?? { tokens: perMinute, at: now };
  bucket.tokens = Math.min(perMinute, bucket.tokens + ((now - bucket.at) * perMinute) / 60_000);
  bucket.at = now;
  buckets.set(keyId, bucket);
  if (bucket.tokens < 1) {
    const retryAfter = Math.max(1, Math.ceil(((1 - bucket.tokens) * 60_000) / perMinute / 1000));
    throw new ApiError("rate_limited", `Too many requests for this API key; try again in ${retryAfter} s.`, {
      headers: { "Retry-After": String(retryAfter) },
    });
  }
  bucket.tokens -= 1;
  return { "RateLimit-Limit": String(perMinute), "RateLimit-Remaining": String(Math.floor(bucket.tokens)) };
}
