import "server-only";
import { createHash, timingSafeEqual } from "node:crypto";
import { ApiError } from "../api/errors";
import { requestIdOf } from "../api/handler";
import { errorResponse, json } from "../api/responses";
import { isUnavailable } from "../db-errors";
import { env } from "../env";
import { logError } from "../log";
import { dispatchPass, type PassReport } from "./dispatch";

// POST /api/cron/webhooks: one dispatcher pass for a scheduler (Vercel Cron, a crontab with
// curl), for deployments with no long-lived process. It sends to the network on anyone's
// request, so it answers only a caller holding CRON_SECRET, sent as Vercel Cron sends it:
// `Authorization: Bearer <CRON_SECRET>`. Unset, the route refuses every call.

/** Compared through hashes: equal lengths for timingSafeEqual, and no timing hint about the secret. */
const digest = (text: string) => createHash("sha256").update(text).digest();

function authorize(headers: Headers): void {
  const secret = env().CRON_SECRET;
  if (!secret) throw new ApiError("forbidden", "CRON_SECRET is not set, so this route is off.");
  const match = /^Bearer\s+(\S+)\s*$/i.exec(headers.get("authorization") ?? "");
  if (!match?.[1]) {
    throw new ApiError("unauthorized", "Send Authorization: Bearer <CRON_SECRET>.", { headers: { "WWW-Authenticate": 'Bearer realm="cron"' } });
  }
  if (!timingSafeEqual(digest(match[1]), digest(secret))) throw new ApiError("forbidden", "That is not the CRON_SECRET.");
}

export function summarize(report: PassReport) {
  const count = (outcome: string) => report.deliveries.filter((d) => d.outcome === outcome).length;
  return {
    attempted: report.deliveries.length,
    delivered: count("delivered"),
    retrying: count("retrying"),
    failed: count("failed"),
    disabledEndpoints: report.disabled,
    deliveries: report.deliveries,
  };
}

export async function cronPass(request: Request): Promise<Response> {
  const requestId = requestIdOf(request.headers);
  try {
    authorize(request.headers);
    return json({ data: summarize(await dispatchPass()) }, 200, requestId);
  } catch (error) {
    if (error instanceof ApiError) return errorResponse(error, requestId);
    if (isUnavailable(error)) return errorResponse(new ApiError("service_unavailable", "The database did not answer; try again."), requestId);
    logError("The cron webhook pass failed", error, requestId);
    return errorResponse(new ApiError("internal_error", "Something went wrong on our side."), requestId);
  }
}
