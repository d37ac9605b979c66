// For the PUT-with-a-webhook scenario: a receiver in the bench process that answers 200 to
// every delivery, and an endpoint subscribed to comment.updated written straight into the
// bench database (the bench runs without the server condition, so not through lib/), removed
// again after the scenario with its deliveries.
import { randomBytes } from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { sql as statement } from "../tests/support/sql";

export interface BenchReceiver {
  url: string;
  /** Deliveries received so far. */
  received(): number;
  close(): Promise<void>;
}

export async function startBenchReceiver(): Promise<BenchReceiver> {
  let received = 0;
  const server = http.createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      received++;
      res.writeHead(200, { "content-type": "text/plain" }).end("ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/hook`,
    received: () => received,
    async close() {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

const ENDPOINT_ID = "whk_bench";

/** Subscribes the receiver to comment.updated. */
export async function subscribe(databaseUrl: string, url: string): Promise<void> {
  // Times as each engine's Prisma adapter writes them, so the dispatcher compares like with like.
  const now = databaseUrl.startsWith("file:") ? new Date().toISOString().replace("Z", "+00:00") : new Date();
  await unsubscribe(databaseUrl);
  await statement(
    databaseUrl,
    `INSERT INTO "WebhookEndpoint" ("id", "url", "description", "events", "enabled", "secret", "createdAt", "updatedAt")
     VALUES (?, ?, 'bench', 'comment.updated', TRUE, ?, ?, ?)`,
    [ENDPOINT_ID, url, `whsec_${randomBytes(32).toString("base64")}`, now, now],
  );
}

/** Removes the endpoint with its deliveries; returns how many were still pending. */
export async function unsubscribe(databaseUrl: string): Promise<number> {
  const [row] = await statement<{ n: number | string }>(
    databaseUrl,
    `SELECT COUNT(*) AS "n" FROM "WebhookDelivery" WHERE "endpointId" = ? AND "status" = 'pending'`,
    [ENDPOINT_ID],
  );
  await statement(
    databaseUrl,
    `DELETE FROM "WebhookAttempt" WHERE "deliveryId" IN (SELECT "id" FROM "WebhookDelivery" WHERE "endpointId" = ?)`,
    [ENDPOINT_ID],
  );
  await statement(databaseUrl, `DELETE FROM "WebhookDelivery" WHERE "endpointId" = ?`, [ENDPOINT_ID]);
  await statement(databaseUrl, `DELETE FROM "WebhookEndpoint" WHERE "id" = ?`, [ENDPOINT_ID]);
  await statement(databaseUrl, `DELETE FROM "WebhookMessage" WHERE NOT EXISTS (SELECT 1 FROM "WebhookDelivery" d WHERE d."messageId" = "WebhookMessage"."id")`, []);
  return Number(row?.n ?? 0);
}
