import { ChangelogView } from "@/components/changelogs/changelog-view";
import { routeParam } from "@/components/ui/route-param";

export default async function ChangelogPage({ params }: { params: Promise<{ changelogId: string }> }) {
  const { changelogId } = await params;
  return <ChangelogView changelogId={routeParam(changelogId)} />;
}
