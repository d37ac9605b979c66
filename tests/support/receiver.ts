import http from "node:http";
import type { AddressInfo } from "node:net";

// A webhook receiver for tests: a real HTTP server in the test process that records every
// request and answers as each path's handler says (a status, or nothing at all: hang).

export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
  at: number;
}

/** What a path answers: a status, or "hang" (never answer). `attempt` counts this webhook-id's requests, from 1. */
export type Answer = (attempt: number, request: Received) => number | "hang";

export interface Receiver {
  url: string;
  received: Received[];
  /** The requests to one path. */
  at(path: string): Received[];
  on(path: string, answer: Answer): void;
  /** Waits until `count` requests reached the path (or fails after `timeoutMs`). */
  waitFor(path: string, count: number, timeoutMs?: number): Promise<Received[]>;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const received: Received[] = [];
  const answers = new Map<string, Answer>();
  const attempts = new Map<string, number>();
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      const headers = Object.fromEntries(Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(", ") : (v ?? "")]));
      const request: Received = { path: req.url ?? "/", headers, body: Buffer.concat(chunks).toString("utf8"), at: Date.now() };
      received.push(request);
      const key = `${request.path} ${headers["webhook-id"]}`;
      const attempt = (attempts.get(key) ?? 0) + 1;
      attempts.set(key, attempt);
      const answer = answers.get(request.path)?.(attempt, request) ?? 200;
      if (answer === "hang") return;
      res.writeHead(answer, { "content-type": "text/plain" }).end(answer < 300 ? "ok" : `no (${answer})`);
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  const at = (path: string) => received.filter((r) => r.path === path);
  return {
    url,
    received,
    at,
    on: (path, answer) => void answers.set(path, answer),
    async waitFor(path, count, timeoutMs = 20_000) {
      const deadline = Date.now() + timeoutMs;
      while (at(path).length < count) {
        if (Date.now() > deadline) throw new Error(`${path} received ${at(path).length} of ${count} requests within ${timeoutMs} ms`);
        await new Promise((r) => setTimeout(r, 25));
      }
      return at(path);
    },
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
