import type { ColumnKind } from "../rows";

export const decoders: Record<"time" | "bool" | "list", (value: unknown) => unknown>;
export function decodeRows<T>(rows: unknown[], kinds: readonly (readonly [string, ColumnKind])[]): T[];
