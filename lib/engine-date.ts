// The engine's own Date constructor, for the Dates made many times a request. Next.js replaces
// the global `Date` in its server with a wrapper (next/dist/server/node-environment-extensions/
// date.js, which watches for reads of the clock while it prerenders). A Date made through it
// took 0.46 µs from a number and 0.93 from text, against 0.08 and 0.41 through the engine's
// constructor (Node 20, this machine), and pg makes two to three hundred of them for a page
// of changelogs. The Dates are the same either way (the wrapper's `prototype` is Date's), and
// the wrapper watches only `Date.now()` and `new Date()` without a value, which these never are.
// server.ts keeps the constructor before it loads Next.js; route handlers find it on
// globalThis (they are bundled apart). server.ts loads this module, so it imports nothing.

const slot = globalThis as unknown as { feedbackEngineDate?: DateConstructor };

/** Keeps the global Date as it is now; server.ts calls it before Next.js replaces it. */
export function keepEngineDate(): void {
  slot.feedbackEngineDate ??= Date;
}

/** The Date constructor kept by keepEngineDate, or the global one where none was (the command line, the tests). */
export function engineDate(): DateConstructor {
  return slot.feedbackEngineDate ?? Date;
}
