import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { keepsPreparedStatements, postgresPoolConfig } from "./db-adapter";

describe("keepsPreparedStatements", () => {
  it("keeps statements prepared on a direct connection", () => {
    assert.equal(keepsPreparedStatements("postgresql://u:p@db.example.com:5432/feedback"), true);
    assert.equal(keepsPreparedStatements("postgresql://u:p@db.example.com/feedback?sslmode=require&pgbouncer=false"), true);
  });

  it("does not behind a pooler the URL marks with pgbouncer=true, as Prisma's URLs do", () => {
    assert.equal(keepsPreparedStatements("postgresql://u:p@pooler.example.com:6543/feedback?pgbouncer=true"), false);
    assert.equal(keepsPreparedStatements("postgres://u:p@pooler.example.com/feedback?sslmode=require&pgbouncer=true"), false);
  });
});

describe("postgresPoolConfig", () => {
  it("turns JIT off on a direct connection, by a startup option a pooler marked pgbouncer=true may refuse", () => {
    assert.equal(postgresPoolConfig("postgresql://u:p@db.example.com:5432/feedback").options, "-c jit=off");
    assert.equal(postgresPoolConfig("postgresql://u:p@pooler.example.com:6543/feedback?pgbouncer=true").options, undefined);
  });
});
