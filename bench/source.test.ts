import assert from "node:assert/strict";
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { describeStamp, readStamp, sourceStamp, writeStamp } from "./source";

describe("the stamp of the code a bench build is made from", () => {
  let root: string;
  const git = (...args: string[]) => execFileSync("git", args, { cwd: root, stdio: "ignore" });
  const put = (file: string, content: string) => {
    fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
    fs.writeFileSync(path.join(root, file), content);
  };
  before(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), "bench-source-"));
    git("init", "-q");
    put("lib/a.ts", "export const a = 1;\n");
    put("README.md", "# notes\n");
    put(".gitignore", "lib/ignored.ts\n");
    git("add", "-A");
    git("-c", "user.name=bench", "-c", "user.email=bench@example.com", "commit", "-qm", "first");
  });
  after(() => fs.rmSync(root, { recursive: true, force: true }));

  it("moves with any change to the build's files, tracked or new, and comes back with them", () => {
    const clean = sourceStamp(root);
    assert.ok(clean);
    assert.equal(clean.changed, 0);
    assert.match(describeStamp(clean), /^commit [0-9a-f]{7,} \(digest [0-9a-f]{12}\)$/);

    put("lib/a.ts", "export const a = 2;\n");
    const edited = sourceStamp(root);
    assert.notEqual(edited?.digest, clean.digest);
    assert.equal(edited?.changed, 1);
    assert.match(describeStamp(edited as NonNullable<typeof edited>), /with 1 file changed/);

    put("lib/a.ts", "export const a = 1;\n");
    put("lib/b.ts", "export const b = 1;\n");
    const added = sourceStamp(root);
    assert.notEqual(added?.digest, clean.digest);
    fs.rmSync(path.join(root, "lib/b.ts"));
    assert.equal(sourceStamp(root)?.digest, clean.digest);
  });

  it("ignores what the build does not read: other files and ignored ones", () => {
    const clean = sourceStamp(root);
    put("README.md", "# other notes\n");
    put("lib/ignored.ts", "export const x = 1;\n");
    assert.deepEqual(sourceStamp(root), clean);
  });

  it("is kept with the build, and a build without one reads as unknown", () => {
    const dist = path.join(root, ".next-bench");
    fs.mkdirSync(dist);
    assert.equal(readStamp(dist), null);
    const stamp = sourceStamp(root);
    writeStamp(dist, stamp);
    assert.deepEqual(readStamp(dist), stamp);
  });

  it("is null outside a git checkout", () => {
    const bare = fs.mkdtempSync(path.join(os.tmpdir(), "bench-source-bare-"));
    try {
      assert.equal(sourceStamp(bare), null);
    } finally {
      fs.rmSync(bare, { recursive: true, force: true });
    }
  });
});
