// GET /api/health - liveness: the process answers, without touching the database
import { API_HEADERS } from "@/lib/api/responses";

export const dynamic = "force-dynamic";

export function GET(): Response {
  return Response.json({ status: "ok" }, { headers: API_HEADERS });
}
