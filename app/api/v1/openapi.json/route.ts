// GET /api/v1/openapi.json - the OpenAPI 3.1 document (public: it describes, it holds no data)
import { requestIdOf } from "@/lib/api/handler";
import { json } from "@/lib/api/responses";
import { openApiDocument } from "@/lib/openapi";

export function GET(req: Request): Response {
  return json(openApiDocument(), 200, requestIdOf(req.headers));
}
