import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import http from "node:http";
import type { AddressInfo } from "node:net";
import os from "node:os";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import Database from "better-sqlite3";
import { scriptArgs } from "../lib/server-command";
import { signIn } from "./support";

// What the browser enforces for the dashboard: the Content-Security-Policy lets the app's own
// scripts run and nothing else, no other origin can frame a page, changelog images from other
// sites never load, and a database that does not answer shows an error with Retry rather than
// the sign-in page.

const root = path.resolve(__dirname, "..");

/** Every CSP violation the page reports, from the DOM event and from the console. */
async function watchCsp(page: Page): Promise<string[]> {
  const violations: string[] = [];
  await page.exposeBinding("__reportCspViolation", (_source, text: string) => violations.push(text));
  await page.addInitScript(() => {
    document.addEventListener("securitypolicyviolation", (event) => {
      const report = (window as unknown as { __reportCspViolation: (text: string) => void }).__reportCspViolation;
      report(`${event.effectiveDirective} blocked ${event.blockedURI || "inline"} on ${location.pathname}`);
    });
  });
  page.on("console", (message) => {
    if (/Content Security Policy/i.test(message.text())) violations.push(`console: ${message.text()}`);
  });
  return violations;
}

/** A server on another origin (another port), for framing and for counting image requests. */
async function otherOrigin(html: (appUrl: string) => string, appUrl: string) {
  const hits: string[] = [];
  const server = http.createServer((req, res) => {
    hits.push(req.url ?? "");
    if (req.url === "/") {
      res.writeHead(200, { "content-type": "text/html; charset=utf-8" });
      res.end(html(appUrl));
    } else {
      res.writeHead(200, { "content-type": "image/gif" });
      res.end(Buffer.from("R0lGODlhAQABAAAAACw=", "base64"));
    }
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { url, hits, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

test("every page runs under a nonce CSP with no violation, and the policy blocks injected script", async ({ page }) => {
  const violations = await watchCsp(page);
  const login = await page.goto("/login");
  const policy = login?.headers()["content-security-policy"] ?? "";
  expect(policy).toMatch(/script-src 'self' 'nonce-[A-Za-z0-9+/=]{16,}' 'strict-dynamic'/);
  expect(policy).not.toMatch(/script-src[^;]*unsafe-inline/);
  expect(policy).toContain("frame-ancestors 'none'");
  await signIn(page);

  const pages: [string, (p: Page) => Promise<void>][] = [
    ["/posts", async (p) => await expect(p.getByRole("table")).toHaveAttribute("aria-busy", "false")],
    ["/posts/p-dark", async (p) => await expect(p.getByRole("button", { name: "Pin" }).first()).toBeVisible()],
    ["/changelogs", async (p) => await expect(p.getByRole("table")).toHaveAttribute("aria-busy", "false")],
    ["/changelogs/cl-dark", async (p) => await expect(p.getByRole("heading", { name: "Dark mode", level: 2 })).toBeVisible()],
    ["/api-docs", async (p) => await expect(p.getByRole("heading", { name: "API docs", level: 1 })).toBeVisible()],
  ];
  for (const [pathname, ready] of pages) {
    const response = await page.goto(pathname);
    const header = response?.headers()["content-security-policy"] ?? "";
    const nonce = /'nonce-([^']+)'/.exec(header)?.[1];
    expect(nonce, pathname).toBeTruthy();
    // Next.js put this response's nonce on its scripts, and the data the scripts fetch arrived.
    expect(await page.locator(`script[nonce]`).count(), pathname).toBeGreaterThan(0);
    await ready(page);
  }
  // Moving between pages in the app (client-side navigation) stays within the policy too.
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Posts" }).click();
  await expect(page.getByRole("heading", { name: "Posts", level: 1 })).toBeVisible();
  await expect(page.getByRole("table")).toHaveAttribute("aria-busy", "false");
  await page.getByRole("link", { name: "Dark mode for the dashboard" }).click();
  await expect(page.getByRole("button", { name: "Pin" }).first()).toBeVisible();
  expect(violations).toEqual([]);

  // The control, an injection the policy must stop: the same page with an inline script added
  // to its HTML, as a markup injection would. (Script run through DevTools is exempt from CSP,
  // so the injection has to arrive in the response, under the response's own policy.)
  await page.route("**/posts/p-csv", async (route) => {
    const response = await route.fetch();
    const html = (await response.text()).replace("</body>", "<script>window.__injected = true</script></body>");
    await route.fulfill({ response, body: html });
  });
  await page.goto("/posts/p-csv");
  await expect(page.getByRole("heading", { name: "Export posts to CSV", level: 1 })).toBeVisible();
  await expect.poll(() => violations.join("\n")).toMatch(/script-src/);
  expect(await page.evaluate(() => (window as unknown as { __injected?: boolean }).__injected)).toBeUndefined();
});

test("another origin cannot frame a signed-in page", async ({ page, baseURL }) => {
  await signIn(page);
  const framer = await otherOrigin(
    (app) => `<!doctype html><title>framer</title>
      <iframe id="victim" src="${app}/posts/p-dark" width="900" height="600"></iframe>
      <iframe id="control" src="${app}/api/health" width="300" height="100"></iframe>`,
    baseURL as string,
  );
  const messages: string[] = [];
  page.on("console", (message) => messages.push(message.text()));
  try {
    await page.goto(framer.url);
    // The control shows that this framer can load the app's origin when nothing forbids it...
    const control = await (await page.locator("#control").elementHandle())?.contentFrame();
    await expect.poll(async () => (await control?.content()) ?? "").toContain('"status":"ok"');
    // ...while the post page is refused: the frame holds Chromium's error page, not the app.
    const victim = await (await page.locator("#victim").elementHandle())?.contentFrame();
    await expect.poll(() => victim?.url()).not.toContain("/posts/p-dark");
    await expect(page.frameLocator("#victim").getByRole("button", { name: "Pin" })).toHaveCount(0);
    await expect(page.frameLocator("#victim").getByRole("heading", { name: "Dark mode for the dashboard" })).toHaveCount(0);
    await expect.poll(() => messages.join("\n")).toMatch(/frame-ancestors/);
  } finally {
    await framer.close();
  }
});

test("changelog images from other origins are links and never load; this site's images load", async ({ page }) => {
  const tracker = await otherOrigin(() => "", "");
  const databaseUrl = process.env.E2E_DATABASE_URL;
  if (!databaseUrl) throw new Error("E2E_DATABASE_URL missing: e2e/global-setup.ts did not run");
  const file = path.join(os.tmpdir(), `feedback-images-${process.pid}.json`);
  const content = [
    "Images in this note:",
    `![Tracking pixel](${tracker.url}/pixel.gif)`,
    `![](//${new URL(tracker.url).host}/scheme-relative.gif)`,
    "![Our logo](/logo-test.png)",
  ].join("\n\n");
  fs.writeFileSync(
    file,
    JSON.stringify({
      version: 1,
      changelogs: [{ id: "cl-images", title: "Images test", content, status: "Draft", labels: [], createdAt: "2026-01-01T00:00:00.000Z" }],
    }),
  );
  const violations = await watchCsp(page);
  try {
    execFileSync(process.execPath, [...scriptArgs("cli/feedback.ts"), "import", file], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: databaseUrl },
      stdio: "ignore",
    });
    await signIn(page);
    await page.goto("/changelogs/cl-images");
    const article = page.getByRole("article");
    await expect(article.getByText("Images in this note:")).toBeVisible();
    await expect(article.getByRole("link", { name: "Tracking pixel" })).toHaveAttribute("href", `${tracker.url}/pixel.gif`);
    await expect(article.getByRole("link", { name: `//${new URL(tracker.url).host}/scheme-relative.gif` })).toBeVisible();
    await expect(article.locator("img")).toHaveCount(1);
    await expect(article.getByRole("img", { name: "Our logo" })).toHaveAttribute("src", "/logo-test.png");
    await page.waitForLoadState("networkidle");
    expect(tracker.hits).toEqual([]);
    expect(violations).toEqual([]);
  } finally {
    fs.rmSync(file, { force: true });
    const db = new Database(databaseUrl.slice("file:".length));
    db.prepare(`DELETE FROM "Changelog" WHERE "id" = 'cl-images'`).run();
    db.close();
    await tracker.close();
  }
});

test("a database that does not answer shows an error with Retry, not the sign-in page", async ({ page }) => {
  const databaseUrl = process.env.E2E_DATABASE_URL;
  if (!databaseUrl) throw new Error("E2E_DATABASE_URL missing: e2e/global-setup.ts did not run");
  // A second server whose database file does not exist yet: every query fails, as when the
  // disk or the database server is gone. Then the file appears (a copy of the e2e database,
  // which holds this browser's session) and Retry brings the dashboard back. Cookies are per
  // host, not per port, so the session cookie reaches the second server too.
  await signIn(page);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "feedback-down-"));
  const later = path.join(dir, "later.db");
  const probe = http.createServer();
  await new Promise<void>((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const port = (probe.address() as AddressInfo).port;
  await new Promise<void>((resolve) => probe.close(() => resolve()));
  const server: ChildProcess = spawn(
    process.execPath,
    [path.join(root, "node_modules", "next", "dist", "bin", "next"), "start", "-p", String(port), "-H", "127.0.0.1"],
    {
      cwd: root,
      env: { ...process.env, DATABASE_URL: `file:${later}`, NODE_ENV: "production", LOG_LEVEL: "silent" },
      stdio: "ignore",
    },
  );
  try {
    const url = `http://127.0.0.1:${port}`;
    await expect
      .poll(async () => (await fetch(`${url}/api/health`).catch(() => undefined))?.status, { timeout: 60_000 })
      .toBe(200);
    await page.goto(`${url}/posts`);
    await expect(page).toHaveURL(`${url}/posts`);
    const alert = page.getByRole("alert", { name: "The dashboard could not be loaded" });
    await expect(alert.getByRole("heading", { name: "The dashboard could not be loaded", level: 1 })).toBeVisible();
    await expect(alert).toContainText("You are still signed in");
    await expect(page.getByLabel("API key")).toHaveCount(0);

    const source = new Database(databaseUrl.slice("file:".length), { readonly: true });
    await source.backup(later);
    source.close();
    await alert.getByRole("button", { name: "Retry" }).click();
    await expect(page.getByRole("heading", { name: "Posts", level: 1 })).toBeVisible();
    await expect(page.getByRole("table")).toHaveAttribute("aria-busy", "false");
  } finally {
    if (server.exitCode === null) {
      const exited = new Promise((resolve) => server.once("exit", resolve));
      server.kill("SIGTERM");
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  }
});
