import assert from "node:assert/strict";
import fs from "node:fs";
import { builtinModules } from "node:module";
import path from "node:path";
import { describe, it } from "node:test";

// Which modules under lib/ carry `import "server-only"`, so that Next.js fails the build when a
// client component reaches one. The rule: a module is the server's when it imports a Node
// built-in, a driver or server package, or another marked module. Pure modules (schemas, error
// codes, text rules, dates) stay unmarked: they are safe in either bundle. The dashboard's
// modules are the browser's and never carry the mark.

const root = path.resolve(import.meta.dirname, "..");

/** Packages that only run on the server. */
const SERVER_PACKAGES = [
  "better-sqlite3",
  "pg",
  "pino",
  "ioredis",
  "rate-limiter-flexible",
  "prisma",
  "@prisma/",
  "next/server",
  "next/headers",
];

/**
 * Server modules loaded where Next.js's `react-server` condition cannot be set, so the mark
 * would throw there: keep each one's imports to unmarked modules.
 */
const UNMARKED = new Map([
  ["lib/env.ts", "prisma.config.ts (Prisma's own CLI) and server.ts load it"],
  ["lib/db-adapter.ts", "prisma.config.ts (Prisma's own CLI) loads it"],
  ["lib/log.ts", "server.ts loads it, and server.ts runs Next.js in its own process"],
  ["lib/api/client.ts", "server.ts loads it"],
  ["lib/event-loop.ts", "server.ts loads it to watch its event loop, and the benchmark for the warning's text"],
  ["lib/webhooks/nudge.ts", "server.ts loads it to pass nudges to its webhook dispatcher"],
  ["lib/worker-share.ts", "server.ts loads it to pass what one worker found on to the others"],
  ["lib/server-command.ts", "Playwright's global setup loads it to start the server"],
  ["lib/sqlite/read-worker.mjs", "a worker thread of server.ts's process runs it"],
]);

function modules(): string[] {
  const found: string[] = [];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(path.join(root, dir), { withFileTypes: true })) {
      const file = path.posix.join(dir, entry.name);
      if (entry.isDirectory()) {
        if (file !== "lib/generated") walk(file);
      } else if (/\.(ts|tsx|mjs)$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name)) {
        found.push(file);
      }
    }
  };
  walk("lib");
  return found.sort();
}

/** The module specifiers a file loads at run time (type-only imports are erased). */
function imports(file: string): string[] {
  const source = fs.readFileSync(path.join(root, file), "utf8");
  const pattern = /^(?:import|export)\s+(type\s+)?(?:[^"';]*?\sfrom\s+)?["']([^"']+)["']/gm;
  return [...source.matchAll(pattern)].flatMap((match) => (match[1] ? [] : [match[2] as string]));
}

function resolveLocal(from: string, specifier: string): string | undefined {
  const base = specifier.startsWith("@/")
    ? specifier.slice(2)
    : specifier.startsWith(".")
      ? path.posix.join(path.posix.dirname(from), specifier)
      : undefined;
  if (base === undefined) return undefined;
  return [base, `${base}.ts`, `${base}.tsx`, `${base}/index.ts`].find((candidate) =>
    fs.existsSync(path.join(root, candidate)),
  );
}

const isBuiltin = (specifier: string) =>
  specifier.startsWith("node:") || builtinModules.includes(specifier.split("/")[0] ?? "");
const isServerPackage = (specifier: string) =>
  SERVER_PACKAGES.some((name) => (name.endsWith("/") ? specifier.startsWith(name) : specifier === name || specifier.startsWith(`${name}/`)));
const isMarked = (file: string) => imports(file).includes("server-only");

describe("server-only marks", () => {
  const files = modules();

  it("every server module under lib/ is marked, apart from the listed exceptions", () => {
    // A module that imports a marked one must be marked itself; iterate to the fixed point so the
    // expectation does not depend on the files' order.
    const server = new Set<string>();
    let grew = true;
    while (grew) {
      grew = false;
      for (const file of files) {
        if (server.has(file) || file.startsWith("lib/dashboard/")) continue;
        const reasons = imports(file).filter((specifier) => {
          if (specifier === "server-only") return false;
          if (isBuiltin(specifier) || isServerPackage(specifier)) return true;
          const local = resolveLocal(file, specifier);
          return local !== undefined && server.has(local);
        });
        if (reasons.length > 0 || isMarked(file)) {
          server.add(file);
          grew = true;
        }
      }
    }
    const unmarked = [...server].filter((file) => !UNMARKED.has(file) && !isMarked(file));
    assert.deepEqual(unmarked, [], "these server modules lack `import \"server-only\"`");
  });

  it("the exceptions stay unmarked and import no marked module", () => {
    for (const file of UNMARKED.keys()) {
      assert.ok(files.includes(file), `${file} is listed but does not exist`);
      assert.equal(isMarked(file), false, `${file} must not be marked: ${UNMARKED.get(file)}`);
      for (const specifier of imports(file)) {
        const local = resolveLocal(file, specifier);
        if (local !== undefined) assert.equal(isMarked(local), false, `${file} imports the marked ${local}`);
      }
    }
  });

  it("no browser module is marked", () => {
    const marked = files.filter((file) => file.startsWith("lib/dashboard/") && isMarked(file));
    assert.deepEqual(marked, []);
  });
});
