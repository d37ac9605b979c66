import "server-only";
import { createHash } from "node:crypto";

// Conditional requests (contract section 6): a strong ETag on every single resource, 304 for an
// If-None-Match that names it, and If-Match on a write. A resource with a version column (a
// comment) is tagged by that version, so the write can check it in its own UPDATE; the others
// by a hash of what the response says, which changes whenever any field of it does.

/** The ETag of a resource that keeps a version number. */
export const versionTag = (version: number) => `"v${version}"`;

/** The ETag of a response body without a version of its own. */
export function contentTag(body: string): string {
  return `"h${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
}

/** The entity tags a conditional header lists; `*` as itself. Weak tags keep their `W/`. */
function tagsOf(header: string): string[] {
  return header.match(/(?:W\/)?"[^"]*"|\*/g) ?? [];
}

/** If-None-Match against the current tag (weak comparison, as RFC 9110 says for it). */
export function matchesNoneMatch(header: string | null, etag: string): boolean {
  if (header === null) return false;
  const strip = (tag: string) => tag.replace(/^W\//, "");
  return tagsOf(header).some((tag) => tag === "*" || strip(tag) === strip(etag));
}

/**
 * What an If-Match header allows: undefined without one (write unconditionally), `"any"` for
 * `*` (the resource only has to exist), else the versions it names. Strong comparison: a weak
 * tag or one of another form names no version, so the write is refused as not current.
 */
export function ifMatchVersions(header: string | null): number[] | "any" | undefined {
  if (header === null) return undefined;
  const tags = tagsOf(header);
  if (tags.includes("*")) return "any";
  return tags.flatMap((tag) => {
    const version = /^"v([1-9]\d{0,9})"$/.exec(tag)?.[1];
    return version === undefined ? [] : [Number(version)];
  });
}
