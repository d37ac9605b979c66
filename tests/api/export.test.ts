import assert from "node:assert/strict";
import { execFile, spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { importFile } from "../../lib/import/schema";
import { scriptArgs } from "../../lib/server-command";
import { createDatabase, type Engine, runCli, startApp, type TestApp, testEngine, type ThrowawayDatabase } from "../support/app";
import { dataset } from "../support/dataset";

// `feedback export`: the way out. Importing its file into an empty database must give the very
// same API answers, on each engine and from SQLite into PostgreSQL; and it streams, so its
// memory does not grow with the data.

const engine = testEngine();
const root = path.resolve(import.meta.dirname, "..", "..");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "feedback-export-"));
after(() => fs.rmSync(tmp, { recursive: true, force: true }));

const SUMMARY = /^Exported 3 boards, 3 statuses, 3 users, 26 posts, 4 comments, 5 changelogs to .+ in [\d.]+ s\.\n$/;

/** Edits through the API, so the file has to carry times that are not the dataset's defaults. */
async function edit(app: TestApp): Promise<void> {
  const put = (id: string, body: unknown) =>
    app.json(`/api/v1/comments/${id}`, { method: "PUT", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
  assert.equal((await put("c-first", { commentDescription: "Edited before the export", pinComment: true })).status, 200);
  assert.equal((await put("c-pinned", { pinComment: false })).status, 200);
}

/** Every list and detail answer the API gives on this data, by path: body and ETag. */
async function answers(app: TestApp): Promise<Map<string, unknown>> {
  const out = new Map<string, unknown>();
  const get = async (pathname: string) => {
    const { status, body, headers } = await app.json(pathname);
    assert.equal(status, 200, `${pathname}: ${JSON.stringify(body)}`);
    out.set(pathname, { body, etag: headers.get("etag") });
    return body;
  };
  const posts = await get("/api/v1/posts?limit=100");
  assert.equal(posts.data.length, 26);
  await get("/api/v1/posts?sortBy=top&limit=100");
  await get("/api/v1/posts?sortBy=top&limit=7&page=2");
  await get("/api/v1/posts?boardId=b-bugs&statusId=s-open&limit=100");
  await get("/api/v1/posts?search=cr%C3%A8me");
  for (const post of posts.data) {
    await get(`/api/v1/posts/${post.id}`);
    await get(`/api/v1/posts/${post.id}/comments?limit=100`);
  }
  const changelogs = await get("/api/v1/changelogs?limit=100");
  assert.equal(changelogs.data.length, 5);
  await get("/api/v1/changelogs?status=draft&limit=100");
  await get("/api/v1/changelogs?labels=new,api&limit=100");
  await get("/api/v1/changelogs?search=dark");
  for (const changelog of changelogs.data) await get(`/api/v1/changelogs/${changelog.id}`);
  await get("/api/v1/boards?limit=100");
  await get("/api/v1/statuses?limit=100");
  await get("/api/v1/users?limit=100");
  await get("/api/v1/users?search=%C3%BCnal");
  await get("/api/v1/labels?limit=100");
  return out;
}

async function roundTrip(from: Engine, to: Engine): Promise<void> {
  const source = await startApp({ dataset, engine: from });
  let target: TestApp | undefined;
  try {
    await edit(source);
    const file = path.join(tmp, `${from}-to-${to}.json`);
    const exported = await source.cli(["export", file]);
    assert.equal(exported.code, 0, exported.stderr);
    assert.match(exported.stdout, SUMMARY);
    assert.match(exported.stderr, /^export: posts 26\/26$/m);
    const parsed = importFile.safeParse(JSON.parse(fs.readFileSync(file, "utf8")));
    assert.ok(parsed.success, parsed.error?.message);

    target = await startApp({ engine: to });
    const imported = await target.cli(["import", file]);
    assert.equal(imported.code, 0, imported.stderr);

    const expected = await answers(source);
    const actual = await answers(target);
    assert.deepEqual([...actual.keys()], [...expected.keys()]);
    for (const [pathname, answer] of expected) assert.deepEqual(actual.get(pathname), answer, pathname);
    // The API edits travelled, times to the millisecond.
    const comments = (actual.get("/api/v1/posts/p-dark/comments?limit=100") as { body: { data: { id: string; pinned: boolean; pinnedAt: string | null }[] } }).body.data;
    const first = comments.find((c) => c.id === "c-first");
    assert.equal(first?.pinned, true);
    assert.notEqual(first?.pinnedAt, null);
    assert.equal(comments.find((c) => c.id === "c-pinned")?.pinnedAt, null);
  } finally {
    await target?.stop();
    await source.stop();
  }
}

describe("feedback export, then import into an empty database", () => {
  it(`${engine} out, ${engine} in: every list and detail answer is the same, field by field`, async () => {
    await roundTrip(engine, engine);
  });

  // The cross-engine case runs in the PostgreSQL pass, which always has TEST_POSTGRES_URL.
  if (engine === "postgres") {
    it("SQLite out, PostgreSQL in: every list and detail answer is the same, field by field", async () => {
      await roundTrip("sqlite", "postgres");
    });
  }
});

describe("feedback export, the file", () => {
  let db: ThrowawayDatabase;
  before(async () => {
    db = await createDatabase();
    const file = path.join(tmp, "dataset.json");
    fs.writeFileSync(file, JSON.stringify(dataset));
    const imported = await runCli(db.url, ["import", file]);
    assert.equal(imported.code, 0, imported.stderr);
  });
  after(async () => {
    await db?.drop();
  });
  const cli = (...args: string[]) => runCli(db.url, args);
  const leftovers = (dir: string) => fs.readdirSync(dir).filter((name) => name.endsWith(".tmp"));

  it("writes the same file to stdout with -, and its summary to stderr", async () => {
    const file = path.join(tmp, "to-file.json");
    assert.equal((await cli("export", file)).code, 0);
    const piped = await cli("export", "-");
    assert.equal(piped.code, 0, piped.stderr);
    assert.equal(piped.stdout, fs.readFileSync(file, "utf8"));
    assert.match(piped.stderr, /^Exported 3 boards, .* in [\d.]+ s\.$/m);
  });

  it("refuses to replace a file without --force, leaving it and nothing else behind", async () => {
    const dir = fs.mkdtempSync(path.join(tmp, "refuse-"));
    const file = path.join(dir, "existing.json");
    fs.writeFileSync(file, "precious");
    const refused = await cli("export", file);
    assert.equal(refused.code, 1);
    assert.equal(refused.stdout, "");
    assert.match(refused.stderr, /^feedback: .*existing\.json already exists; pass --force to replace it\n$/);
    assert.equal(fs.readFileSync(file, "utf8"), "precious");
    const forced = await cli("export", file, "--force");
    assert.equal(forced.code, 0, forced.stderr);
    assert.match(forced.stdout, SUMMARY);
    assert.equal(JSON.parse(fs.readFileSync(file, "utf8")).posts.length, 26);
    assert.deepEqual(leftovers(dir), []);
  });

  it("fails with a one-line reason when the directory is missing", async () => {
    const missing = await cli("export", path.join(tmp, "no-such-dir", "out.json"));
    assert.equal(missing.code, 1);
    assert.match(missing.stderr, /^feedback: cannot write .*out\.json: no such directory\n$/);
  });

  it("needs exactly one FILE", async () => {
    const result = await cli("export");
    assert.equal(result.code, 1);
    assert.match(result.stderr, /^feedback: export needs exactly one FILE\nRun "npm run -s feedback -- help" for usage\.\n$/);
  });
});

describe("feedback export streams", () => {
  let small: ThrowawayDatabase;
  let large: ThrowawayDatabase;
  before(async () => {
    small = await createDatabase();
    large = await createDatabase();
    assert.equal((await runCli(small.url, ["seed", "--posts", "20"])).code, 0);
    const seeded = await runCli(large.url, ["seed", "--posts", "10000"]);
    assert.equal(seeded.code, 0, seeded.stderr);
  });
  after(async () => {
    await small?.drop();
    await large?.drop();
  });

  // Samples the live heap (after a full collection) every 10 ms and prints its peak at exit.
  const sampler = `data:text/javascript,let peak=0;const sample=()=>{globalThis.gc();peak=Math.max(peak,process.memoryUsage().heapUsed)};setInterval(sample,10).unref();process.on("exit",()=>{sample();process.stderr.write("peak-heap="+peak+"\\n")});`;

  async function peakHeap(databaseUrl: string, file: string): Promise<number> {
    const { stderr } = await promisify(execFile)(
      process.execPath,
      ["--expose-gc", "--import", sampler, ...scriptArgs("cli/feedback.ts"), "export", file],
      { cwd: root, env: { ...process.env, DATABASE_URL: databaseUrl }, maxBuffer: 16 * 1024 * 1024 },
    );
    const peak = /peak-heap=(\d+)/.exec(stderr)?.[1];
    assert.ok(peak, stderr);
    return Number(peak);
  }

  it("never leaves a half file under the name it was given, even when killed part-way", async () => {
    const file = path.join(tmp, "killed.json");
    const child = spawn(process.execPath, [...scriptArgs("cli/feedback.ts"), "export", file], {
      cwd: root,
      env: { ...process.env, DATABASE_URL: large.url },
      stdio: ["ignore", "ignore", "pipe"],
    });
    // The first progress line: the file has been started, most of it is still to come.
    await new Promise<void>((resolve) => child.stderr.on("data", (d) => String(d).includes("export:") && resolve()));
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGKILL");
    await exited;
    assert.equal(fs.existsSync(file), false);
  });

  it("holds about as much memory for 10,000 posts as for 20", async () => {
    const smallPeak = await peakHeap(small.url, path.join(tmp, "small.json"));
    const file = path.join(tmp, "large.json");
    const largePeak = await peakHeap(large.url, file);
    const size = fs.statSync(file).size;
    const content = JSON.parse(fs.readFileSync(file, "utf8"));
    assert.equal(content.posts.length, 10_000);
    assert.ok(size > 8_000_000, `the file is ${size} bytes`);
    // Holding the rows would cost more than the file itself; a stream costs one chunk.
    const growth = largePeak - smallPeak;
    assert.ok(growth < size / 2, `the heap grew by ${growth} bytes for a ${size}-byte file (${smallPeak} -> ${largePeak})`);
  });
});
