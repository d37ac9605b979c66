import { ApiError, type ErrorDetail } from "./errors";

// Text may hold every Unicode character except NUL and unpaired surrogates. PostgreSQL refuses
// NUL in text outright (error 22021), SQLite's FTS5 cannot parse it in a search, and a lone
// surrogate has no UTF-8 form, so neither engine could store it as sent. Refusing both here,
// before any parsing, makes the answer a 400 on both engines alike.

// With the `u` flag a well-formed surrogate pair is one code point above U+FFFF, so the
// surrogate range matches only surrogates that are unpaired.
const FORBIDDEN = /[\0\uD800-\uDFFF]/u;

/** Why a string cannot be stored as text, or undefined when it can. */
export function textProblem(value: string): string | undefined {
  const found = FORBIDDEN.exec(value)?.[0];
  if (found === undefined) return undefined;
  if (found === "\0") return "must not contain NUL (U+0000)";
  const code = found.charCodeAt(0).toString(16).toUpperCase();
  return `must not contain an unpaired surrogate (U+${code})`;
}

function firstProblem(value: unknown): string | undefined {
  if (typeof value === "string") return textProblem(value);
  if (Array.isArray(value)) {
    for (const item of value) {
      const problem = firstProblem(item);
      if (problem) return problem;
    }
    return undefined;
  }
  if (value !== null && typeof value === "object") return firstProblem(Object.values(value));
  return undefined;
}

/**
 * Throws a 400 naming every field whose text (at any depth) holds a character no engine can
 * store. `fields` limits the check to the fields a schema reads; the rest are ignored anyway.
 */
export function assertStorableText(input: unknown, fields: readonly string[] | undefined, where: string): void {
  if (input === null || typeof input !== "object") return;
  const details: ErrorDetail[] = [];
  for (const [field, value] of Object.entries(input)) {
    if (fields && !fields.includes(field)) continue;
    const message = firstProblem(value);
    if (message) details.push({ field, message });
  }
  if (!details.length) return;
  throw new ApiError("invalid_request", `Invalid ${where}: ${details.map((d) => d.field).join(", ")}.`, { details });
}
