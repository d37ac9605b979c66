// GET /api/v1/openapi.json - the OpenAPI 3.1 document (public: it describes, it holds no data)
import { requestIdOf } from "@/lib/api/handler";
import { logged } from "@/lib/api/request-log";
import { json } from "@/lib/api/responses";
import { openApiDocument } from "@/lib/openapi";

export const GET = logged((req: Request) => json(openApiDocument(), 200, requestIdOf(req.headers)));
