// GET /api/v1/changelogs/:changelogId - one changelog
import { ApiError } from "@/lib/api/errors";
import { route, withApi } from "@/lib/api/handler";
import { getChangelogOperation } from "@/lib/changelogs/operations";
import { getChangelog } from "@/lib/changelogs/queries";

export const dynamic = "force-dynamic";

export const { GET, HEAD, POST, PUT, PATCH, DELETE, OPTIONS } = route({
  GET: withApi(getChangelogOperation, async ({ params }) => {
    const changelog = await getChangelog(params.changelogId);
    if (!changelog) throw new ApiError("not_found", `No changelog has the id "${params.changelogId}".`);
    return { data: changelog };
  }),
});
