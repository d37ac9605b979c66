import assert from "node:assert/strict";
import { it } from "node:test";
import { startApp } from "../tests/support/app";
import { dataset } from "../tests/support/dataset";
it("first posts", async () => {
  const app = await startApp({ dataset });
  try {
    for (const p of ["/api/v1/posts", "/api/v1/posts", "/api/v1/posts?search=dark", "/api/v1/changelogs"]) {
      const r = await app.json(p);
      console.log(p, r.status, JSON.stringify(r.body).slice(0, 200));
    }
    console.log(app.output().slice(-4000));
  } finally { await app.stop(); }
});
