import assert from "node:assert/strict";
import { afterEach, describe, it } from "node:test";
import { engineDate, keepEngineDate } from "./engine-date";

const global = globalThis as unknown as { Date: DateConstructor; feedbackEngineDate?: DateConstructor };
const original = global.Date;

/** A stand-in for Next.js's wrapper of Date: the same prototype, made through Reflect.construct. */
function wrapper(this: unknown, ...args: unknown[]) {
  return Reflect.construct(original, args, new.target ?? wrapper);
}
wrapper.prototype = original.prototype;

describe("engineDate", () => {
  afterEach(() => {
    global.Date = original;
    delete global.feedbackEngineDate;
  });

  it("is the global Date where none was kept", () => {
    assert.equal(engineDate(), original);
    global.Date = wrapper as unknown as DateConstructor;
    assert.equal(engineDate(), wrapper);
  });

  it("stays the Date kept before the global one was replaced, and its Dates are Dates to the wrapper too", () => {
    keepEngineDate();
    global.Date = wrapper as unknown as DateConstructor;
    keepEngineDate(); // a second call keeps the first
    const EngineDate = engineDate();
    assert.equal(EngineDate, original);
    const date = new EngineDate("2026-12-07T08:15:00.123Z");
    assert.ok(date instanceof global.Date);
    assert.equal(date.toISOString(), "2026-12-07T08:15:00.123Z");
  });
});
