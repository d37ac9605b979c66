import { type ChildProcess, execFileSync, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import type { FullConfig } from "@playwright/test";
import { scriptArgs, serverArgs } from "../lib/server-command";

// A throwaway SQLite database, migrated and filled from e2e/fixtures/dataset.json, a
// read/write key, a read-only key and an admin key, and the production server on it. The keys reach the
// tests through the environment, which Playwright hands on to its workers.

const root = path.resolve(__dirname, "..");

function cli(databaseUrl: string, args: string[]): string {
  return execFileSync(process.execPath, [...scriptArgs("cli/feedback.ts"), ...args], {
    cwd: root,
    env: { ...process.env, DATABASE_URL: databaseUrl },
    encoding: "utf8",
    stdio: ["ignore", "pipe", "pipe"],
  }).trim();
}

async function waitForHealth(baseURL: string, server: ChildProcess, output: () => string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (Date.now() < deadline) {
    if (server.exitCode !== null) throw new Error(`next start exited (${server.exitCode}):\n${output()}`);
    try {
      if ((await fetch(`${baseURL}/api/health`)).ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`next start did not answer within 60 s:\n${output()}`);
}

export default async function globalSetup(config: FullConfig) {
  const distDir = process.env.NEXT_DIST_DIR ?? ".next";
  if (!fs.existsSync(path.join(root, distDir, "BUILD_ID"))) {
    throw new Error(`No production build in ${distDir}: run "npx next build" first (npm test does).`);
  }
  const baseURL = config.projects[0]?.use.baseURL;
  if (!baseURL) throw new Error("playwright.config.ts must set use.baseURL");
  const port = new URL(baseURL).port;

  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "feedback-e2e-"));
  const databaseUrl = `file:${path.join(dir, "e2e.db")}`;
  cli(databaseUrl, ["migrate"]);
  cli(databaseUrl, ["import", path.join(root, "e2e", "fixtures", "dataset.json")]);
  process.env.E2E_WRITE_KEY = cli(databaseUrl, ["keys", "create", "--name", "e2e-moderator"]);
  process.env.E2E_READ_KEY = cli(databaseUrl, ["keys", "create", "--name", "e2e-readonly", "--scopes", "read"]);
  process.env.E2E_ADMIN_KEY = cli(databaseUrl, ["keys", "create", "--name", "e2e-admin", "--scopes", "read,write,admin"]);
  process.env.E2E_DATABASE_URL = databaseUrl;

  let output = "";
  const server = spawn(process.execPath, serverArgs(root), {
    cwd: root,
    env: {
      ...process.env,
      DATABASE_URL: databaseUrl,
      NODE_ENV: "production",
      PORT: port,
      HOSTNAME: "127.0.0.1",
      RATE_LIMIT_PER_MINUTE: "0",
      RATE_LIMIT_ANONYMOUS_PER_MINUTE: "0",
      LOG_LEVEL: "warn",
      // The webhook tests' receiver listens on this machine, over http.
      WEBHOOK_ALLOW_HTTP: "true",
      WEBHOOK_ALLOW_PRIVATE: "true",
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout?.on("data", (d) => (output += d));
  server.stderr?.on("data", (d) => (output += d));
  try {
    await waitForHealth(baseURL, server, () => output);
  } catch (error) {
    server.kill("SIGTERM");
    fs.rmSync(dir, { recursive: true, force: true });
    throw error;
  }

  return async () => {
    if (server.exitCode === null) {
      const exited = new Promise((r) => server.once("exit", r));
      server.kill("SIGTERM");
      await exited;
    }
    fs.rmSync(dir, { recursive: true, force: true });
  };
}
