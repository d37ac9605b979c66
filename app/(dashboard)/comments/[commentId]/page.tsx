import { notFound, redirect } from "next/navigation";
import { findComment } from "@/lib/comments/queries";

// A comment's address, for links that know only its id (the Activity page): its post's page,
// scrolled to it.
export default async function CommentPage({ params }: { params: Promise<{ commentId: string }> }) {
  const { commentId } = await params;
  const found = await findComment(commentId);
  if (!found) notFound();
  redirect(`/posts/${encodeURIComponent(found.comment.postId)}#comment-${encodeURIComponent(commentId)}`);
}
