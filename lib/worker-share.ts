import cluster from "node:cluster";

// What one of server.ts's WEB_CONCURRENCY workers finds that every other would otherwise find
// again for itself, by a long read of the database after each start and each change of data
// version: remembered positions in a sort order (lib/positions.ts), a search index's vocabulary
// (lib/vocabulary.ts). The worker that sets out to find one says so, then sends the others what
// it found (or that it gave up); a worker's message goes to the primary, which passes it on to
// every other worker. Sharing is only a saving: a worker that hears nothing finds for itself.
// server.ts loads this module, so it imports nothing of the server's.

/** The `type` of every such message between workers. */
const SHARE_MESSAGE = "feedback:share";

/** How long a worker waits for what another said it is finding, before it finds it itself. */
const CLAIM_MS = 60_000;

interface Message {
  type: typeof SHARE_MESSAGE;
  /** What is shared ("positions", "vocabulary"). */
  kind: string;
  /** Which one of that kind (a list's filter and order, a table). */
  key: string;
  /** Set out to find it; gave it up; or found this. */
  claim?: true;
  release?: true;
  found?: unknown;
}

/** Whether an IPC message is one a worker shares (and so for the other workers). */
export const isShareMessage = (message: unknown): boolean =>
  typeof message === "object" && message !== null && (message as { type?: unknown }).type === SHARE_MESSAGE;

export interface WorkerShare<T> {
  /** Whether another worker said it is finding `key`, less than CLAIM_MS ago, and has not said more. */
  claimedElsewhere(key: string): boolean;
  /** Tells the other workers this one is finding `key`. */
  claim(key: string): void;
  /** Tells them it gave `key` up. */
  release(key: string): void;
  /** Sends them what it found. */
  send(key: string, found: T): void;
}

interface Kind {
  claimed: Map<string, number>;
  take: (key: string, found: unknown) => void;
}

// On globalThis: route handlers are bundled apart, and each bundle's copy of a module that
// shares must hear every message once, through one listener.
const slot = globalThis as unknown as { feedbackWorkerShares?: Map<string, Kind> };

function kinds(): Map<string, Kind> {
  if (slot.feedbackWorkerShares) return slot.feedbackWorkerShares;
  const registered = new Map<string, Kind>();
  slot.feedbackWorkerShares = registered;
  if (cluster.isWorker) {
    process.on("message", (message: unknown) => {
      if (!isShareMessage(message)) return;
      const { kind, key, claim, found } = message as Message;
      const entry = registered.get(kind);
      if (!entry) return;
      if (claim) {
        entry.claimed.set(key, Date.now() + CLAIM_MS);
        return;
      }
      entry.claimed.delete(key);
      if (found !== undefined) entry.take(key, found);
    });
  }
  return registered;
}

/**
 * Shares findings of `kind` with the other workers; `take` receives theirs. The first copy of a
 * module to register a kind in a process takes them all: its state must live on globalThis too.
 */
export function workerShare<T>(kind: string, take: (key: string, found: T) => void): WorkerShare<T> {
  const registered = kinds();
  if (!registered.has(kind)) registered.set(kind, { claimed: new Map(), take: take as Kind["take"] });
  const entry = registered.get(kind) as Kind;
  const say = (message: Omit<Message, "type" | "kind">) => {
    if (cluster.isWorker) process.send?.({ type: SHARE_MESSAGE, kind, ...message }, undefined, {}, () => {});
  };
  return {
    claimedElsewhere: (key) => (entry.claimed.get(key) ?? 0) > Date.now(),
    claim: (key) => say({ key, claim: true }),
    release: (key) => say({ key, release: true }),
    send: (key, found) => say({ key, found }),
  };
}
