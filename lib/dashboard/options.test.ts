import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { optionList } from "./options";

const boards = [
  { id: "b-web", name: "Web", postCount: 3 },
  { id: "b-mobile", name: "Mobile app", postCount: 1 },
];
const labels = [
  { name: "Fixed", changelogCount: 2 },
  { name: "API", changelogCount: 1 },
];

describe("optionList", () => {
  it("offers each board by id under its name and selects the chosen one", () => {
    assert.deepEqual(optionList("boards", boards, ["b-mobile"]), {
      options: [
        { value: "b-web", label: "Web" },
        { value: "b-mobile", label: "Mobile app" },
      ],
      selected: ["b-mobile"],
    });
  });

  it("selects nothing when nothing is chosen", () => {
    assert.deepEqual(optionList("statuses", [], []), { options: [], selected: [] });
  });

  it("keeps an id the list lacks as an unknown board once the list has loaded, and not before", () => {
    assert.deepEqual(optionList("boards", boards, ["b-gone"]).options.at(-1), { value: "b-gone", label: "Unknown board" });
    assert.deepEqual(optionList("boards", boards, ["b-gone"]).selected, ["b-gone"]);
    assert.deepEqual(optionList("statuses", undefined, ["s-x"]), { options: [], selected: [] });
    assert.deepEqual(optionList("statuses", [], ["s-x"]).options, [{ value: "s-x", label: "Unknown status" }]);
  });

  it("matches ids exactly", () => {
    assert.equal(optionList("boards", boards, ["B-WEB"]).options.at(-1)?.label, "Unknown board");
  });

  it("matches label names in any case and selects the list's spelling", () => {
    assert.deepEqual(optionList("labels", labels, ["api", "fixed"]).selected, ["Fixed", "API"]);
    assert.equal(optionList("labels", labels, ["api"]).options.length, 2);
  });

  it("keeps a label name the list lacks, as written, even before the list loads, once per name in any case", () => {
    assert.deepEqual(optionList("labels", undefined, ["Old", "OLD"]), { options: [{ value: "Old", label: "Old" }], selected: ["Old"] });
    assert.deepEqual(optionList("labels", labels, ["Old"]).options.at(-1), { value: "Old", label: "Old" });
  });
});
