/** A database time (Date, ISO text or epoch milliseconds) as ISO 8601 UTC. */
export function iso(value: Date | string | number): string {
  return (value instanceof Date ? value : new Date(value)).toISOString();
}

export function isoOrNull(value: Date | string | number | null): string | null {
  return value === null ? null : iso(value);
}
