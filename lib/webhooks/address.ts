import "server-only";
import dns from "node:dns";
import type { LookupFunction } from "node:net";
import ipaddr from "ipaddr.js";

// Where a webhook may be sent. A URL is refused at creation and again at every delivery (DNS
// can change) when its host is, or resolves to, anything but a public unicast address:
// loopback, private, link-local (cloud metadata at 169.254.169.254), unique-local, carrier-grade
// NAT, reserved, multicast. WEBHOOK_ALLOW_PRIVATE lifts that for tests and local development.
// ipaddr.js classifies the addresses.

export class WebhookAddressError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "WebhookAddressError";
  }
}

export interface AddressPolicy {
  allowHttp: boolean;
  allowPrivate: boolean;
}

/** Whether an IP address is public unicast (an IPv4-mapped IPv6 address as its IPv4 one). */
export function isPublicAddress(address: string): boolean {
  if (!ipaddr.isValid(address)) return false;
  const parsed = ipaddr.process(address);
  return parsed.range() === "unicast";
}

function refuse(host: string, address: string): never {
  const range = ipaddr.isValid(address) ? ipaddr.process(address).range() : "invalid";
  throw new WebhookAddressError(
    `${host} ${host === address ? "is" : `resolves to ${address}, which is`} a ${range} address; webhooks go only to public addresses (WEBHOOK_ALLOW_PRIVATE=true allows others).`,
  );
}

/** The URL's syntax: https (or http when allowed), a host, no credentials. Returns it parsed. */
export function parseWebhookUrl(raw: string, policy: AddressPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookAddressError("is not a URL");
  }
  if (url.protocol !== "https:" && !(url.protocol === "http:" && policy.allowHttp)) {
    throw new WebhookAddressError(policy.allowHttp ? "must be an http or https URL" : "must be an https URL (WEBHOOK_ALLOW_HTTP=true allows http)");
  }
  if (url.username || url.password) throw new WebhookAddressError("must not hold a user name or password");
  if (!url.hostname) throw new WebhookAddressError("has no host");
  return url;
}

/** The URL's host without IPv6 brackets. */
const hostOf = (url: URL) => url.hostname.replace(/^\[(.*)\]$/, "$1");

/**
 * Checks that the URL's host is, or resolves only to, public addresses. Every address a name
 * resolves to must pass: a name with one public and one private address is refused.
 */
export async function assertPublicHost(url: URL, policy: AddressPolicy): Promise<void> {
  if (policy.allowPrivate) return;
  const host = hostOf(url);
  if (ipaddr.isValid(host)) {
    if (!isPublicAddress(host)) refuse(host, host);
    return;
  }
  let addresses: dns.LookupAddress[];
  try {
    addresses = await dns.promises.lookup(host, { all: true, verbatim: true });
  } catch {
    throw new WebhookAddressError(`${host} does not resolve`);
  }
  for (const { address } of addresses) if (!isPublicAddress(address)) refuse(host, address);
}

/**
 * A `lookup` for http.request that resolves the host and hands the socket only addresses it
 * has just checked, so the name cannot resolve to another address between check and connect.
 * (An IP literal in the URL never reaches a lookup: check it with assertPublicHost first.)
 */
export function guardedLookup(policy: AddressPolicy): LookupFunction {
  return (hostname, options, callback) => {
    dns.lookup(hostname, { ...options, all: true, verbatim: true }, (error, addresses) => {
      if (error) return callback(error, "", 0);
      const list = addresses as unknown as dns.LookupAddress[];
      const blocked = policy.allowPrivate ? undefined : list.find(({ address }) => !isPublicAddress(address));
      if (blocked) {
        const range = ipaddr.process(blocked.address).range();
        return callback(
          new WebhookAddressError(`${hostname} resolves to ${blocked.address}, which is a ${range} address`) as NodeJS.ErrnoException,
          "",
          0,
        );
      }
      if ((options as { all?: boolean }).all) return (callback as unknown as (e: null, a: dns.LookupAddress[]) => void)(null, list);
      const [first] = list;
      if (!first) return callback(new Error(`${hostname} has no address`) as NodeJS.ErrnoException, "", 0);
      callback(null, first.address, first.family);
    });
  };
}
