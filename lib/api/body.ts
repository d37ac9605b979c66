import { ApiError } from "./errors";

// Reads a write's body: at most 64 KiB, form-urlencoded or JSON, into a plain object.

export const MAX_BODY_BYTES = 64 * 1024;

const tooLarge = () => new ApiError("payload_too_large", `The request body must be at most ${MAX_BODY_BYTES} bytes (64 KiB).`);

async function readLimited(req: Request): Promise<Uint8Array> {
  const declared = req.headers.get("content-length");
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw tooLarge();
  if (!req.body) return new Uint8Array();
  const reader = req.body.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read().catch(() => {
      // Node ends the stream with "aborted" (ECONNRESET) when the client goes away mid-body:
      // the client's doing, not the database's (whose errors share that code).
      throw new ApiError("invalid_request", "The request body was cut off before its end.", {
        details: [{ field: "body", message: "was cut off before its end" }],
      });
    });
    if (done) break;
    size += value.byteLength;
    if (size > MAX_BODY_BYTES) {
      await reader.cancel();
      throw tooLarge();
    }
    chunks.push(value);
  }
  return Buffer.concat(chunks);
}

function decode(bytes: Uint8Array): string {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(bytes);
  } catch {
    throw ApiError.invalid("body", "is not valid UTF-8");
  }
}

export async function readBody(req: Request): Promise<Record<string, unknown>> {
  const mediaType = (req.headers.get("content-type") ?? "").split(";")[0]?.trim().toLowerCase() ?? "";
  const isForm = mediaType === "application/x-www-form-urlencoded";
  const isJson = mediaType === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
  const declared = req.headers.get("content-length");
  if (declared !== null && Number(declared) > MAX_BODY_BYTES) throw tooLarge();
  if (!isForm && !isJson) {
    throw new ApiError(
      "unsupported_media_type",
      "Send the body as application/x-www-form-urlencoded or application/json.",
    );
  }
  const text = decode(await readLimited(req));

  if (isForm) {
    const out: Record<string, string> = {};
    for (const [key, value] of new URLSearchParams(text)) {
      if (key in out) throw ApiError.invalid(key, "must be given once");
      out[key] = value;
    }
    return out;
  }

  if (text.trim() === "") return {};
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw ApiError.invalid("body", "is not valid JSON");
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) {
    throw ApiError.invalid("body", "must be a JSON object");
  }
  return parsed as Record<string, unknown>;
}
