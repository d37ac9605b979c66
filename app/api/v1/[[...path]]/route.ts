// ANY /api/v1/* - a JSON 404 for every path no other route serves
import { ApiError } from "@/lib/api/errors";
import { refuseAfterAdmission } from "@/lib/api/handler";
import { logged } from "@/lib/api/request-log";

export const dynamic = "force-dynamic";

const notFound = logged((req: Request) =>
  refuseAfterAdmission(
    req,
    (_method, path) => new ApiError("not_found", `There is no ${path}. The API's routes are listed at /api/v1/openapi.json.`),
  ),
);

export { notFound as DELETE, notFound as GET, notFound as HEAD, notFound as OPTIONS, notFound as PATCH, notFound as POST, notFound as PUT };
