import "server-only";

// What sending a delivery needs besides the delivery itself: its endpoint's URL, the secrets
// signing at the time, and its event's type and body.

export interface Target {
  url: string;
  secrets: string[];
  type: string;
  payload: string;
}

/** The endpoint's columns a target is made of. */
export interface EndpointKeys {
  url: string;
  secret: string;
  previousSecret: string | null;
  previousExpiresAt: Date | null;
}

/** A delivery's target: during a rotation the old secret signs too, so a receiver still holding it verifies. */
export function targetOf(endpoint: EndpointKeys, message: { type: string; payload: string }, now: Date): Target {
  const secrets = [endpoint.secret];
  if (endpoint.previousSecret && endpoint.previousExpiresAt && endpoint.previousExpiresAt > now) secrets.push(endpoint.previousSecret);
  return { url: endpoint.url, secrets, type: message.type, payload: message.payload };
}
