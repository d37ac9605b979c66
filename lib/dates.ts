import { z } from "zod";

/** A database time (Date, ISO text or epoch milliseconds) as ISO 8601 UTC. */
export function iso(value: Date | string | number): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

export function isoOrNull(value: Date | string | number | null): string | null {
  return value === null ? null : iso(value);
}

/** A time in a record, as the API writes it. */
export const isoDateTime = z.iso.datetime().meta({ example: "2026-01-02T03:04:05.000Z" });
