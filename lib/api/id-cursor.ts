import { z } from "zod";

// Cursors of the lists that only grow at one end (audit events, webhook deliveries): the last
// sortable id a page showed (lib/ids.ts), base64url-encoded so clients treat it as opaque. Ids
// only grow, so "older than this id" names the same place however many items arrive meanwhile.

const idPattern = (prefix: string) => new RegExp(`^${prefix}_[0-9a-z]{25}$`);

export function encodeIdCursor(id: string): string {
  return Buffer.from(id, "utf8").toString("base64url");
}

/** The id with this prefix a cursor carries, or null when it is not one this API gave. */
export function decodeIdCursor(cursor: string, prefix: string): string | null {
  const id = Buffer.from(cursor, "base64url").toString("utf8");
  // Re-encoding refuses the many spellings base64 decoding would quietly accept.
  return idPattern(prefix).test(id) && encodeIdCursor(id) === cursor ? id : null;
}

/** The `cursor` query parameter of such a list: absent or empty is the first page. */
export function idCursorParam(prefix: string, description: string) {
  return z
    .string()
    .max(200, "is not a cursor this API gave")
    .optional()
    .transform((value, ctx) => {
      if (value === undefined || value.trim() === "") return undefined;
      const id = decodeIdCursor(value.trim(), prefix);
      if (id === null) {
        ctx.addIssue({ code: "custom", message: "is not a cursor this API gave" });
        return z.NEVER;
      }
      return id;
    })
    .meta({ description });
}
