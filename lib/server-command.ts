import path from "node:path";

// How every launcher starts the production server (npm start, the tests, the browser tests,
// the benchmark) and the command line, so they all run them alike. package.json's scripts spell
// the same flags.

/**
 * V8's old generation is capped: left alone it grows lazily toward a quarter of the machine's
 * memory, and the server's resident memory reached 555 MB under load at 1,000,000 posts; capped
 * at 192 MB it stayed near 300 MB at the same throughput (bench/, 2026-11-22). The live heap of
 * a serving process is far below the cap; NODE_OPTIONS cannot raise it, a flag here can.
 * The young generation keeps V8's default (semi-spaces up to 16 MB): 4 and 8 MB were up to a
 * quarter slower on this machine, and 64 MB two to eight times slower (bench/, 2026-11-25).
 */
export const SERVER_HEAP_FLAG = "--max-old-space-size=192";

/** The arguments for process.execPath that run server.ts under `root`. */
export function serverArgs(root: string): string[] {
  return [SERVER_HEAP_FLAG, "--import", "tsx", path.join(root, "server.ts")];
}

/**
 * The server's modules carry `import "server-only"`, which throws unless Node resolves with
 * Next.js's `react-server` condition. A process that imports them outside Next.js (the command
 * line, npm start's setup, the tests, the benchmark) sets the condition. server.ts must not: it
 * runs Next.js in its own process, whose page rendering needs React's ordinary build.
 */
export const SERVER_CONDITION = "--conditions=react-server";

/** The arguments for process.execPath that run a TypeScript entry point such as cli/feedback.ts. */
export function scriptArgs(script: string): string[] {
  return [SERVER_CONDITION, "--import", "tsx", script];
}
