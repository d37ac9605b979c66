import fs from "node:fs";
import { defineConfig } from "@playwright/test";

// Browser tests against the production build (`npx next build` first; npm test does it) on a
// throwaway database that e2e/global-setup.ts creates, fills and serves.

const port = Number(process.env.E2E_PORT ?? 3210);
const executablePath = process.env.CHROMIUM_PATH ?? "/usr/bin/chromium";

// Never skip for want of a browser: `npx playwright install` cannot download one here, so the
// system's Chromium is the browser, and its absence is an error that says how to fix it.
if (!fs.existsSync(executablePath)) {
  throw new Error(`Chromium not found at ${executablePath}. Install it with: apt-get install chromium (or set CHROMIUM_PATH).`);
}

export default defineConfig({
  testDir: "e2e",
  globalSetup: "./e2e/global-setup.ts",
  forbidOnly: true,
  retries: 0,
  workers: 1,
  fullyParallel: false,
  timeout: 45_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"], ["html", { open: "never" }]] : "list",
  use: {
    baseURL: `http://127.0.0.1:${port}`,
    browserName: "chromium",
    locale: "en-US",
    timezoneId: "UTC",
    launchOptions: {
      executablePath,
      args: [
        "--no-sandbox",
        "--disable-gpu",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
        "--no-first-run",
        "--disable-quic",
      ],
    },
    trace: "retain-on-failure",
    screenshot: "only-on-failure",
  },
});
