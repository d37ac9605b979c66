// For the PUT-with-a-webhook scenario: a receiver that answers 200 to every delivery, and an
// endpoint subscribed to comment.updated written straight into the bench database (the bench
// runs without the server condition, so not through lib/), enabled for the scenario and
// disabled after it. Its deliveries stay, as a service keeps them for WEBHOOK_LOG_DAYS: the
// bench used to delete them after each run, so every run started on emptied webhook tables
// (and their dead rows), which a running service never does. The receiver runs in a thread of
// its own, as the health probe does: on the load generator's thread, reading hundreds of
// deliveries a second delayed the clock it times the PUTs with, and added that delay to their
// latency.
import { randomBytes } from "node:crypto";
import { Worker } from "node:worker_threads";
import { sql as statement } from "../tests/support/sql";

export interface BenchReceiver {
  url: string;
  /** Deliveries received so far. */
  received(): number;
  close(): Promise<void>;
}

const RECEIVER = `
const http = require("node:http");
const { parentPort, workerData } = require("node:worker_threads");
const received = new Int32Array(workerData.counter);
const server = http.createServer((req, res) => {
  req.resume();
  req.on("end", () => {
    Atomics.add(received, 0, 1);
    res.writeHead(200, { "content-type": "text/plain" }).end("ok");
  });
});
server.listen(0, "127.0.0.1", () => parentPort.postMessage(server.address().port));
parentPort.on("message", () => {
  server.closeAllConnections();
  server.close(() => parentPort.postMessage("closed"));
});
`;

export async function startBenchReceiver(): Promise<BenchReceiver> {
  const counter = new SharedArrayBuffer(4);
  const received = new Int32Array(counter);
  const worker = new Worker(RECEIVER, { eval: true, workerData: { counter } });
  const port = await new Promise<number>((resolve, reject) => {
    worker.once("message", resolve);
    worker.once("error", reject);
  });
  return {
    url: `http://127.0.0.1:${port}/hook`,
    received: () => Atomics.load(received, 0),
    async close() {
      const closed = new Promise((resolve) => worker.once("message", resolve));
      worker.postMessage("close");
      await closed;
      await worker.terminate();
    },
  };
}

const ENDPOINT_ID = "whk_bench";

/** Subscribes the receiver to comment.updated: creates the endpoint, or enables it again at the receiver's address. */
export async function subscribe(databaseUrl: string, url: string): Promise<void> {
  // Times as each engine's Prisma adapter writes them, so the dispatcher compares like with like.
  const now = databaseUrl.startsWith("file:") ? new Date().toISOString().replace("Z", "+00:00") : new Date();
  await statement(
    databaseUrl,
    `INSERT INTO "WebhookEndpoint" ("id", "url", "description", "events", "enabled", "secret", "createdAt", "updatedAt")
     VALUES (?, ?, 'bench', 'comment.updated', TRUE, ?, ?, ?)
     ON CONFLICT ("id") DO UPDATE SET "url" = excluded."url", "enabled" = TRUE, "updatedAt" = excluded."updatedAt"`,
    [ENDPOINT_ID, url, `whsec_${randomBytes(32).toString("base64")}`, now, now],
  );
}

/**
 * Enabled endpoints other than the bench's own. Each would make every PUT of both scenarios
 * write an event and the dispatcher deliver it, so the PUT "without webhooks" would have them
 * and the comparison would not measure what it says (a scratch endpoint left enabled once did
 * that).
 */
export async function otherEnabledEndpoints(databaseUrl: string): Promise<string[]> {
  const rows = await statement<{ id: string }>(databaseUrl, `SELECT "id" FROM "WebhookEndpoint" WHERE "enabled" = TRUE AND "id" <> ? ORDER BY "id"`, [ENDPOINT_ID]);
  return rows.map((row) => row.id);
}

/** Disables the endpoint, keeping its deliveries; returns how many were still pending (they wait for the next run). */
export async function unsubscribe(databaseUrl: string): Promise<number> {
  await statement(databaseUrl, `UPDATE "WebhookEndpoint" SET "enabled" = FALSE WHERE "id" = ?`, [ENDPOINT_ID]);
  // Events naming it that no dispatcher has given their delivery yet (lib/webhooks/fan-out.ts)
  // are pending too.
  const [row] = await statement<{ n: number | string }>(
    databaseUrl,
    `SELECT (SELECT COUNT(*) FROM "WebhookDelivery" WHERE "endpointId" = ? AND "status" = 'pending')
       + (SELECT COUNT(*) FROM "WebhookMessage" WHERE "fanOut" > '' AND "fanOut" LIKE ?) AS "n"`,
    [ENDPOINT_ID, `%${ENDPOINT_ID}%`],
  );
  return Number(row?.n ?? 0);
}
