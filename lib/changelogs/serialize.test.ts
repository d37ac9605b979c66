import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { sortLabels } from "./serialize";

describe("sortLabels", () => {
  it("orders by name in English, ignoring case and accents", () => {
    assert.deepEqual(sortLabels(["improved", "API", "Écran", "bug", "Zapier", "dark mode"]), ["API", "bug", "dark mode", "Écran", "improved", "Zapier"]);
  });

  it("orders names equal but for case or accents by code unit, so the order is total", () => {
    assert.deepEqual(sortLabels(["resume", "Resume", "résumé", "RESUME"]), ["RESUME", "Resume", "resume", "résumé"]);
    assert.deepEqual(sortLabels(["résumé", "RESUME", "resume", "Resume"]), ["RESUME", "Resume", "resume", "résumé"]);
  });

  it("leaves the record's own list as it was", () => {
    const labels = ["b", "a"];
    assert.deepEqual(sortLabels(labels), ["a", "b"]);
    assert.deepEqual(labels, ["b", "a"]);
  });
});
