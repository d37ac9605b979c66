// GET /api/ready - readiness: the database answers within a second (for load balancers and probes)
import { readiness } from "@/lib/health";

export const dynamic = "force-dynamic";

export async function GET(): Promise<Response> {
  const { ready, reason } = await readiness();
  return Response.json(ready ? { status: "ready" } : { status: "unavailable", reason }, {
    status: ready ? 200 : 503,
    headers: { "Cache-Control": "no-store", ...(ready ? {} : { "Retry-After": "2" }) },
  });
}
