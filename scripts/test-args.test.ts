import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { needsBuild, parseTestArgs } from "./test-args";

describe("parseTestArgs", () => {
  it("runs every suite, after a build, when given nothing", () => {
    assert.deepEqual(parseTestArgs([]), { suites: ["unit", "api", "e2e"], build: true });
  });

  it("runs the named suites in the usual order", () => {
    assert.deepEqual(parseTestArgs(["e2e", "unit"]), { suites: ["unit", "e2e"], build: true });
  });

  it("reuses the build with --no-build, wherever it stands", () => {
    assert.deepEqual(parseTestArgs(["--no-build", "api"]), { suites: ["api"], build: false });
    assert.deepEqual(parseTestArgs(["--no-build"]), { suites: ["unit", "api", "e2e"], build: false });
  });

  it("refuses what it does not know, naming it", () => {
    const result = parseTestArgs(["api", "--nobuild", "browser"]);
    assert.ok("error" in result);
    assert.match(result.error, /^Unknown arguments: --nobuild browser\nUsage:/);
  });
});

describe("needsBuild", () => {
  it("is needed by the API and browser tests, not by the unit tests", () => {
    assert.equal(needsBuild(["unit"]), false);
    assert.equal(needsBuild(["unit", "api"]), true);
    assert.equal(needsBuild(["e2e"]), true);
  });
});
