// PUT /api/v1/comments/:commentId - edit or pin
import { route, withApi } from "@/lib/api/handler";
import { commentParams, updateCommentBody } from "@/lib/comments/schemas";
import { updateComment } from "@/lib/comments/service";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  PUT: withApi({ scope: "write", params: commentParams, body: updateCommentBody }, async ({ params, body }) => ({
    data: await updateComment(params.commentId, body),
  })),
});
