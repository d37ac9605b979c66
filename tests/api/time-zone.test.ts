import assert from "node:assert/strict";
import { after, before, describe, it } from "node:test";
import { startApp, type TestApp } from "../support/app";
import { dataset, latestOrder, posts } from "../support/dataset";

// The server's own time zone must not leak into the times it reads or the cursors it takes:
// the columns hold UTC, and each engine's driver would otherwise read (or bind) them in the
// process's zone. A server in Los Angeles gives the same answers as one in UTC.

interface Page {
  data: { id: string }[];
  pagination: { nextCursor: string | null };
}

let app: TestApp;
before(async () => {
  app = await startApp({ dataset, env: { TZ: "America/Los_Angeles" } });
});
after(async () => {
  await app?.stop();
});

describe("a server outside UTC", () => {
  it("reads every time as stored", async () => {
    const { body } = await app.json("/api/v1/posts?limit=100");
    const byId = new Map(posts.map((p) => [p.id, p.createdAt]));
    for (const post of body.data as { id: string; createdAt: string }[]) {
      assert.equal(post.createdAt, byId.get(post.id), post.id);
    }
  });

  it("continues a cursor exactly where it left off", async () => {
    const seen: string[] = [];
    let cursor: string | null = "";
    while (cursor !== null) {
      const path: string = `/api/v1/posts?limit=4${cursor ? `&cursor=${cursor}` : ""}`;
      const { body }: { body: Page } = await app.json<Page>(path);
      seen.push(...body.data.map((p) => p.id));
      cursor = body.pagination.nextCursor;
    }
    assert.deepEqual(seen, latestOrder());
  });
});
