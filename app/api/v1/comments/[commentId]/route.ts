// PUT /api/v1/comments/:commentId - edit or pin
import { route, withApi } from "@/lib/api/handler";
import { updateCommentOperation } from "@/lib/comments/operations";
import { updateComment } from "@/lib/comments/service";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  PUT: withApi(updateCommentOperation, async ({ params, body }) => ({
    data: await updateComment(params.commentId, body),
  })),
});
