import assert from "node:assert/strict";
import { describe, test } from "node:test";
import type { Measure, Scenario } from "./measure";
import { type Row, webhookVerdict } from "./report";

// The benchmark's verdict on the webhook's cost to a PUT, from the two PUT rows.

const row = (name: string, rps: number, p99: number, workers = 1): Row =>
  ({ scenario: { name } as Scenario, workers, connections: 16, hits: "", app: { rps, p99 } as Measure, floor: {} as Measure, floorRuns: [] }) as Row;

describe("webhookVerdict", () => {
  test("met within 10% on both throughput and p99", () => {
    assert.equal(
      webhookVerdict([row("put-comment", 600, 50), row("put-comment-webhook", 560, 54)]),
      "met with 1 worker at 16 connections (throughput −6.7%, p99 +8.0%)",
    );
  });

  test("missed when either is past 10%, per worker count", () => {
    assert.equal(
      webhookVerdict([row("put-comment", 600, 50), row("put-comment-webhook", 590, 60), row("put-comment", 900, 40, 2), row("put-comment-webhook", 700, 40, 2)]),
      "missed with 1 worker at 16 connections (throughput −1.7%, p99 +20.0%); missed with 2 workers at 16 connections (throughput −22.2%, p99 +0.0%)",
    );
  });

  test("says so when a PUT scenario did not run", () => {
    assert.equal(webhookVerdict([row("put-comment", 600, 50)]), "not measured (both PUT scenarios must run)");
  });
});
