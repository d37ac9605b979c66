// GET /api/v1/comments/:commentId/revisions - every version of a comment, oldest first
import { ApiError } from "@/lib/api/errors";
import { route, withApi } from "@/lib/api/handler";
import { listRevisionsOperation } from "@/lib/comments/operations";
import { listRevisions } from "@/lib/comments/queries";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApi(listRevisionsOperation, async ({ params }) => {
    const revisions = await listRevisions(params.commentId);
    if (!revisions) throw new ApiError("not_found", `No comment has the id "${params.commentId}".`);
    return { data: revisions };
  }),
});
