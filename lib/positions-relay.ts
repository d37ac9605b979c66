// How the workers of server.ts share remembered positions in a sort order (lib/positions.ts): a
// worker's message goes to the primary, which passes it on to every other worker. server.ts
// loads this module, so it imports nothing of the server's.

/** The `type` of every message about remembered positions between workers. */
export const POSITIONS_MESSAGE = "feedback:positions";

/** Whether an IPC message is about remembered positions (and so for the other workers). */
export const isPositionsMessage = (message: unknown): boolean =>
  typeof message === "object" && message !== null && (message as { type?: unknown }).type === POSITIONS_MESSAGE;
