import { PostView } from "@/components/posts/post-view";
import { routeParam } from "@/components/ui/route-param";

export default async function PostPage({ params }: { params: Promise<{ postId: string }> }) {
  const { postId } = await params;
  return <PostView postId={routeParam(postId)} />;
}
