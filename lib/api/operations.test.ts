import assert from "node:assert/strict";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, it } from "node:test";
import * as audit from "../audit/operations";
import * as boards from "../boards/operations";
import * as changelogs from "../changelogs/operations";
import * as comments from "../comments/operations";
import * as labels from "../labels/operations";
import * as posts from "../posts/operations";
import * as statuses from "../statuses/operations";
import * as users from "../users/operations";
import * as webhooks from "../webhooks/operations";
import type { Operation } from "./define-operation";
import { operations } from "./operations";

// A route serves its operation under the method and at the path the declaration (and so the
// OpenAPI document) gives; the type checker cannot see a file's place in app/.

const root = path.resolve(import.meta.dirname, "../..");
const declared = new Map<string, Operation>(Object.entries({ ...audit, ...boards, ...changelogs, ...comments, ...labels, ...posts, ...statuses, ...users, ...webhooks }));

const served = readdirSync(path.join(root, "app/api/v1"), { recursive: true, encoding: "utf8" })
  .filter((file) => path.basename(file) === "route.ts")
  .flatMap((file) =>
    [...readFileSync(path.join(root, "app/api/v1", file), "utf8").matchAll(/(\w+): withApi\((\w+),/g)].map(([, method, name]) => ({
      file: path.join("app/api/v1", file),
      method,
      name: name as string,
    })),
  );

describe("the operations", () => {
  it("are all registered for the document", () => {
    assert.deepEqual(new Set(operations), new Set(declared.values()));
  });

  it("are each served by one route, under their method, at their path", () => {
    assert.deepEqual(served.map((s) => s.name).sort(), [...declared.keys()].sort());
    for (const { file, method, name } of served) {
      const operation = declared.get(name);
      assert.ok(operation, `${file} serves ${name}, which is declared`);
      assert.equal(method, operation.method, `${file}: ${name}`);
      assert.equal(file, path.join("app/api/v1", operation.path.replaceAll(/\{(\w+)\}/g, "[$1]"), "route.ts"), name);
    }
  });
});
