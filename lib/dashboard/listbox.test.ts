import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { closedListbox, type ListboxState, listboxAfter, listboxKey } from "./listbox";

const open = (active: number): ListboxState => ({ open: true, active });

/** The state after pressing the keys one after another, with `count` options. */
function press(keys: string[], count: number, from: ListboxState = closedListbox): ListboxState {
  return keys.reduce((state, key) => listboxKey(state, key, count)?.state ?? state, from);
}

describe("listboxKey", () => {
  it("ArrowDown opens the list and highlights the first option, then each next one, stopping at the last", () => {
    assert.deepEqual(press(["ArrowDown"], 3), open(0));
    assert.deepEqual(press(["ArrowDown", "ArrowDown"], 3), open(1));
    assert.deepEqual(press(["ArrowDown", "ArrowDown", "ArrowDown", "ArrowDown"], 3), open(2));
  });

  it("ArrowUp moves back and stops at the first option", () => {
    assert.deepEqual(press(["ArrowUp"], 3, open(2)), open(1));
    assert.deepEqual(press(["ArrowUp", "ArrowUp", "ArrowUp"], 3, open(2)), open(0));
    assert.deepEqual(press(["ArrowUp"], 3, open(-1)), open(0));
  });

  it("ArrowUp on a closed list highlights nothing", () => {
    assert.deepEqual(listboxKey(closedListbox, "ArrowUp", 3), { state: closedListbox });
  });

  it("highlights nothing in an empty list", () => {
    assert.deepEqual(press(["ArrowDown"], 0), open(-1));
    assert.deepEqual(press(["ArrowUp"], 0, open(-1)), open(-1));
  });

  it("Enter leaves the list as it is and asks the component to choose", () => {
    assert.deepEqual(listboxKey(open(1), "Enter", 3), { state: open(1), command: "enter" });
    assert.deepEqual(listboxKey(closedListbox, "Enter", 0), { state: closedListbox, command: "enter" });
  });

  it("Escape closes an open list and forgets the highlight; on a closed list it is not the list's", () => {
    assert.deepEqual(listboxKey(open(2), "Escape", 3), { state: closedListbox, command: "escape" });
    assert.equal(listboxKey(closedListbox, "Escape", 3), undefined);
  });

  it("leaves every other key to the input", () => {
    for (const key of ["a", "Tab", "Home", " ", "ArrowLeft"]) assert.equal(listboxKey(open(1), key, 3), undefined, key);
  });
});

describe("listboxAfter", () => {
  it("focus opens the list, and keeps an open one as it is", () => {
    assert.deepEqual(listboxAfter(closedListbox, "focus"), open(-1));
    assert.deepEqual(listboxAfter(open(1), "focus"), open(1));
  });

  it("typing opens the list with nothing highlighted", () => {
    assert.deepEqual(listboxAfter(open(2), "input"), open(-1));
    assert.deepEqual(listboxAfter(closedListbox, "input"), open(-1));
  });

  it("new options drop the highlight and keep the list as it was", () => {
    assert.deepEqual(listboxAfter(open(2), "reset"), open(-1));
    assert.deepEqual(listboxAfter(closedListbox, "reset"), closedListbox);
  });

  it("close closes and forgets the highlight", () => {
    assert.deepEqual(listboxAfter(open(2), "close"), closedListbox);
  });
});
