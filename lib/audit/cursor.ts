// The audit list's cursor: the last event id a page showed, base64url-encoded so clients treat
// it as opaque. Ids only grow, so "older than this id" names the same place however many
// events arrive meanwhile.

const EVENT_ID = /^evt_[0-9a-z]{25}$/;

export function encodeEventCursor(id: string): string {
  return Buffer.from(id, "utf8").toString("base64url");
}

/** The event id a cursor carries, or null when it is not one this API gave. */
export function decodeEventCursor(cursor: string): string | null {
  const id = Buffer.from(cursor, "base64url").toString("utf8");
  // Re-encoding refuses the many spellings base64 decoding would quietly accept.
  return EVENT_ID.test(id) && encodeEventCursor(id) === cursor ? id : null;
}
