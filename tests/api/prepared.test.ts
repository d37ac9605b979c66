import assert from "node:assert/strict";
import { execFile } from "node:child_process";
import path from "node:path";
import { after, before, describe, it } from "node:test";
import { promisify } from "node:util";
import { scriptArgs } from "../../lib/server-command";
import { createDatabase, type ThrowawayDatabase, testEngine } from "../support/app";

const root = path.resolve(import.meta.dirname, "../..");

interface Probe {
  keys: number;
  count: number;
  names: { name: string; statement: string }[];
  durableCommit: string | null;
  relaxedCommit: string | null;
  jit: { read: string; prisma: string } | null;
  searches: number[];
  readNames: { name: string; statement: string }[];
}

async function probe(databaseUrl: string): Promise<Probe> {
  const { stdout } = await promisify(execFile)(process.execPath, scriptArgs("tests/support/prepared-probe.ts"), {
    cwd: root,
    // One connection, so that what the probe asks of it last is what its reads left there.
    env: { ...process.env, DATABASE_URL: databaseUrl, DATABASE_POOL_SIZE: "1" },
  });
  return JSON.parse(stdout.trim().split("\n").at(-1) ?? "{}") as Probe;
}

describe("statements kept prepared, and commits that need not wait for the disk (PostgreSQL)", () => {
  let database: ThrowawayDatabase;
  before(async () => {
    database = await createDatabase();
  });
  after(async () => {
    await database?.drop();
  });

  it("a transaction's statements and a lookup answer alike on either engine; on PostgreSQL they stay prepared and JIT is off, unless the URL says pgbouncer=true", async () => {
    const direct = await probe(database.url);
    assert.equal(direct.keys, 0);
    assert.equal(direct.count, 0);
    if (testEngine() === "sqlite") {
      // SQLite's writer and read workers keep their statements themselves; nothing to ask.
      assert.deepEqual(direct.names, []);
      assert.deepEqual(direct.readNames, []);
      assert.deepEqual(direct.searches, [0, 0]);
      assert.equal(direct.relaxedCommit, null);
      return;
    }
    const statements = direct.names.map((n) => n.statement);
    assert.ok(
      statements.some((s) => s.includes("pg_prepared_statements")),
      `the transaction's own statement is prepared: ${JSON.stringify(direct.names)}`,
    );
    assert.ok(direct.names.every((n) => n.name.startsWith("feedback_")), JSON.stringify(direct.names));

    assert.equal(direct.durableCommit, "on", "a transaction waits for the disk at commit");
    assert.equal(direct.relaxedCommit, "off", "one that may be redone does not (the dispatcher's leases and records)");

    assert.deepEqual(direct.jit, { read: "off", prisma: "off" }, "no query is compiled just in time");

    // A search's words are looked up by a kept statement, one text per number of terms: the
    // search of four terms (PREPARED_TERMS) left one, the search of five none.
    assert.deepEqual(direct.searches, [0, 0]);
    const wordLookups = direct.readNames.filter((n) => n.statement.includes('"SearchWord"'));
    assert.equal(wordLookups.length, 1, JSON.stringify(direct.readNames));
    assert.equal(wordLookups[0]?.statement.match(/LIKE/g)?.length, 4, "the kept one is the four terms'");

    const pooled = await probe(`${database.url}${database.url.includes("?") ? "&" : "?"}pgbouncer=true`);
    assert.equal(pooled.count, 0);
    assert.deepEqual(pooled.names, [], "behind a pooler that cannot keep them, nothing stays prepared");
    assert.deepEqual(pooled.readNames, [], "the reads' connection keeps nothing either");
    // Nor is JIT turned off by a startup option, which such a pooler may refuse: PostgreSQL's default holds.
    assert.deepEqual(pooled.jit, { read: "on", prisma: "on" });
  });
});
