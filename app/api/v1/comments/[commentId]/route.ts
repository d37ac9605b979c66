// GET /api/v1/comments/:commentId - one comment; PUT - edit or pin it
import { actorOf, requestMetaOf } from "@/lib/audit/record";
import { ifMatchVersions, versionTag } from "@/lib/api/conditional";
import { ApiError } from "@/lib/api/errors";
import { clientIpOf } from "@/lib/api/client";
import { route, withApi } from "@/lib/api/handler";
import { getCommentOperation, updateCommentOperation } from "@/lib/comments/operations";
import { findComment } from "@/lib/comments/queries";
import { updateComment } from "@/lib/comments/service";
import { deliverSoon } from "@/lib/webhooks/dispatcher";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApi(getCommentOperation, async ({ params }) => {
    const found = await findComment(params.commentId);
    if (!found) throw new ApiError("not_found", `No comment has the id "${params.commentId}".`);
    return { data: found.comment, etag: versionTag(found.version) };
  }),
  PUT: withApi(updateCommentOperation, async ({ params, body, principal, requestId, headers }) => {
    const { comment, version, events } = await updateComment(params.commentId, body, {
      actor: actorOf(principal),
      request: requestMetaOf(requestId, clientIpOf(headers), headers),
      ifMatch: ifMatchVersions(headers.get("if-match")),
    });
    // Delivery is off the request's path: this only tells the dispatcher.
    deliverSoon(events);
    return { data: comment, etag: versionTag(version) };
  }),
});
