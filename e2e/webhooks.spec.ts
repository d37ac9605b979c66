import http from "node:http";
import type { AddressInfo } from "node:net";
import { expect, test } from "@playwright/test";
import { keys, signIn } from "./support";

// The Webhooks page: an admin adds an endpoint, sees its secret once, sends a test, finds the
// delivery in the log (through the API too) and redelivers it with the same webhook-id.
// A real receiver listens, so once the dispatcher runs in the server the deliveries reach it.

interface Received {
  id: string | undefined;
  body: string;
}

let receiver: http.Server;
const received: Received[] = [];

test.beforeAll(async () => {
  receiver = http.createServer((req, res) => {
    let body = "";
    req.on("data", (chunk) => (body += chunk));
    req.on("end", () => {
      received.push({ id: req.headers["webhook-id"] as string | undefined, body });
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, "127.0.0.1", resolve));
});
test.afterAll(async () => {
  await new Promise((resolve) => receiver.close(resolve));
});

const adminHeaders = () => ({ Authorization: `Bearer ${keys().admin}` });

test("an admin adds an endpoint, sees the secret once, sends a test, and redelivers it from the log", async ({ page, request, context }) => {
  const url = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}/hooks/${Date.now()}`;
  await context.grantPermissions(["clipboard-read", "clipboard-write"]);
  await signIn(page, keys().admin);
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" }).click();
  await expect(page.getByRole("heading", { name: "Webhooks", level: 1 })).toBeVisible();

  // A refused field says why, under the field.
  await page.getByLabel("Endpoint URL").fill(url);
  await page.getByRole("button", { name: "Add endpoint" }).click();
  await expect(page.getByText("give at least one event type")).toBeVisible();

  await page.getByRole("checkbox", { name: /comment\.pinned/ }).check();
  await page.getByLabel("Description (optional)").fill("Browser test receiver");
  await page.getByRole("button", { name: "Add endpoint" }).click();

  const notice = page.getByRole("region", { name: `Signing secret for ${url}` });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText("you will not see it again");
  const secret = await notice.getByLabel("Signing secret").inputValue();
  expect(secret).toMatch(/^whsec_[A-Za-z0-9+/]{43}=$/);
  await notice.getByRole("button", { name: "Copy" }).click();
  await expect(notice.getByText("Copied to the clipboard.")).toBeVisible();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(secret);

  const endpoint = page.getByRole("article", { name: url });
  await expect(endpoint).toContainText("Browser test receiver");
  await expect(endpoint.getByRole("list", { name: "Events" })).toHaveText("comment.pinned");
  await expect(endpoint).toContainText("Enabled");

  // The secret is gone once dismissed, and never comes back: not on reload, not from the API.
  await notice.getByRole("button", { name: "Done, I have stored it" }).click();
  await expect(notice).toHaveCount(0);
  await page.reload();
  await expect(endpoint).toBeVisible();
  await expect(page.getByText(secret)).toHaveCount(0);
  const listed = await request.get("/api/v1/webhooks", { headers: adminHeaders() });
  const hooks = (await listed.json()).data as { id: string; url: string }[];
  const hook = hooks.find((h) => h.url === url);
  expect(hook).toBeTruthy();
  expect(JSON.stringify(hooks)).not.toContain("whsec_");

  await endpoint.getByRole("button", { name: "Send test" }).click();
  await expect(endpoint.getByText(/Test event msg_\w+ queued/)).toBeVisible();
  const log = endpoint.getByRole("table", { name: `Deliveries to ${url}` });
  await expect(log.getByRole("row")).toHaveCount(2);
  const [first] = (await (await request.get(`/api/v1/webhooks/${hook?.id}/deliveries`, { headers: adminHeaders() })).json()).data as {
    id: string;
    eventId: string;
    status: string;
  }[];
  expect(first).toBeTruthy();
  const row = log.getByRole("row").filter({ hasText: first?.eventId ?? "-" });
  await expect(row).toContainText("webhook.test");
  // The server's dispatcher sends it to the receiver, and the log (which refreshes while a
  // delivery is pending) says so, with the attempt's answer.
  const deliveries = async () =>
    (await (await request.get(`/api/v1/webhooks/${hook?.id}/deliveries`, { headers: adminHeaders() })).json()).data as {
      id: string;
      eventId: string;
      status: string;
    }[];
  await expect.poll(async () => (await deliveries())[0]?.status, { timeout: 20_000 }).toBe("delivered");
  expect(received.filter((r) => r.id === first?.eventId)).toHaveLength(1);
  await expect(row).toContainText("delivered", { timeout: 15_000 });

  await row.getByRole("button", { name: `Attempts of webhook.test ${first?.eventId}` }).click();
  await expect(log.getByText(/Attempt 1.*HTTP 204/)).toBeVisible();

  await row.getByRole("button", { name: `Redeliver webhook.test ${first?.eventId}` }).click();
  await expect(endpoint.getByText(`webhook.test (${first?.eventId}) queued again.`)).toBeVisible();
  // The same event twice: two deliveries, one webhook-id.
  await expect(log.getByRole("row").filter({ hasText: first?.eventId ?? "-" })).toHaveCount(2);
  const after = await deliveries();
  expect(after.map((d) => d.eventId)).toEqual([first?.eventId, first?.eventId]);
  expect(after[0]?.id).not.toBe(first?.id);
  // Sent again with the same webhook-id, so a receiver can tell it is the same event.
  await expect.poll(async () => (await deliveries()).map((d) => d.status), { timeout: 20_000 }).toEqual(["delivered", "delivered"]);
  expect(received.filter((r) => r.id === first?.eventId)).toHaveLength(2);

  // A rotation shows the new secret once, and says the old one still signs for a day.
  await endpoint.getByRole("button", { name: "Rotate secret" }).click();
  const rotated = page.getByRole("region", { name: `New signing secret for ${url}` });
  await expect(rotated).toContainText("keeps signing beside it for 24 hours");
  const newSecret = await rotated.getByLabel("Signing secret").inputValue();
  expect(newSecret).toMatch(/^whsec_/);
  expect(newSecret).not.toBe(secret);
  await rotated.getByRole("button", { name: "Done, I have stored it" }).click();

  // Disable, then remove after confirming.
  await endpoint.getByRole("button", { name: "Disable" }).click();
  await expect(endpoint).toContainText("Disabled");
  await endpoint.getByRole("button", { name: "Remove", exact: true }).click();
  await endpoint.getByRole("alertdialog").getByRole("button", { name: "Cancel" }).click();
  await expect(endpoint).toBeVisible();
  await endpoint.getByRole("button", { name: "Remove", exact: true }).click();
  await endpoint.getByRole("button", { name: "Remove endpoint" }).click();
  await expect(page.getByRole("article", { name: url })).toHaveCount(0);
  expect((await request.get(`/api/v1/webhooks/${hook?.id}`, { headers: adminHeaders() })).status()).toBe(404);
});

test("a key without the admin scope has no Webhooks link, and the page says what it needs", async ({ page }) => {
  await signIn(page, keys().write);
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Webhooks" })).toHaveCount(0);
  await page.goto("/webhooks");
  await expect(page.getByRole("heading", { name: "Webhooks need an admin key." })).toBeVisible();
});
