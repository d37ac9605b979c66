// The delivery log's cursor: the last delivery id a page showed, base64url-encoded so clients
// treat it as opaque. Delivery ids only grow (a redelivery is a new, greater id), so "older
// than this id" names the same place however many deliveries arrive meanwhile.

const DELIVERY_ID = /^dlv_[0-9a-z]{25}$/;

export function encodeDeliveryCursor(id: string): string {
  return Buffer.from(id, "utf8").toString("base64url");
}

/** The delivery id a cursor carries, or null when it is not one this API gave. */
export function decodeDeliveryCursor(cursor: string): string | null {
  const id = Buffer.from(cursor, "base64url").toString("utf8");
  // Re-encoding refuses the many spellings base64 decoding would quietly accept.
  return DELIVERY_ID.test(id) && encodeDeliveryCursor(id) === cursor ? id : null;
}
