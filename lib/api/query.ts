import { z } from "zod";
import { ApiError } from "./errors";

// Building blocks for query-string schemas, and the step that turns URLSearchParams into
// the plain object those schemas parse.

const MAX_IDS = 100;

/** A whole number in [min, max] written in plain digits ("0", "1.5", "abc", "" are refused). */
export function intParam(min: number, max: number, fallback: number) {
  return z
    .string()
    .regex(/^\d+$/, `must be a whole number from ${min} to ${max}`)
    .transform(Number)
    .pipe(
      z
        .number()
        .min(min, `must be a whole number from ${min} to ${max}`)
        .max(max, `must be a whole number from ${min} to ${max}`),
    )
    .optional()
    .transform((n) => n ?? fallback);
}

export const pageParams = {
  limit: intParam(1, 100, 10).meta({ description: "Items per page, 1 to 100.", default: 10 }),
  page: intParam(1, Number.MAX_SAFE_INTEGER, 1).meta({ description: "Page number, from 1.", default: 1 }),
};

/** An optional exact-match filter; an empty value means no filter. */
export const filterParam = z
  .string()
  .max(200, "must be at most 200 characters")
  .optional()
  .transform((v) => (v === undefined || v.trim() === "" ? undefined : v.trim()));

/** Values given comma-separated and/or repeated (`id=a,b&id=c`), deduplicated. */
export function listParam(max: number, what: string) {
  return z
    .array(z.string())
    .optional()
    .transform((values) => {
      if (!values) return undefined;
      const items = [...new Set(values.flatMap((v) => v.split(",")).map((v) => v.trim()).filter(Boolean))];
      return items.length ? items : undefined;
    })
    .refine((items) => !items || items.length <= max, `at most ${max} ${what}`);
}

export const idsParam = listParam(MAX_IDS, "ids");

/** The search text: trimmed, empty means none, at most 200 characters. */
export const searchParam = z
  .string()
  .optional()
  .transform((v) => v?.trim() || undefined)
  .refine((v) => v === undefined || [...v].length <= 200, "must be at most 200 characters");

/**
 * The keys of a query schema that take a list (repeated and/or comma-separated): those whose
 * input is an array, the same test that gives them `explode` in the OpenAPI document.
 */
export function listKeysOf(schema: z.ZodObject): string[] {
  const { properties } = z.toJSONSchema(schema, { io: "input", unrepresentable: "any" }) as {
    properties: Record<string, { type?: unknown }>;
  };
  return Object.keys(properties).filter((key) => properties[key]?.type === "array");
}

/**
 * Reads a query string for a schema: list keys become arrays, the rest single strings.
 * A single-valued key given twice is refused; `q` is the alias of `search`; keys the
 * schema does not know are ignored.
 */
export function queryObject(params: URLSearchParams, known: readonly string[], lists: readonly string[]) {
  const out: Record<string, string | string[]> = {};
  const entries = [...params.entries()].map(([k, v]) => [k === "q" && known.includes("search") ? "search" : k, v] as const);
  for (const [key, value] of entries) {
    if (!known.includes(key)) continue;
    if (lists.includes(key)) {
      out[key] = [...((out[key] as string[] | undefined) ?? []), value];
    } else if (key in out) {
      throw ApiError.invalid(key, "must be given once");
    } else {
      out[key] = value;
    }
  }
  return out;
}
