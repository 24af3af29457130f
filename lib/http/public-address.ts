// Where an event webhook may point. The service POSTs to URLs its users type in, so a URL that
// resolves to a private, loopback or link-local address (the machine itself, the cloud metadata
// service, the internal network) is refused, both when it is saved and on every connection (the
// name could resolve elsewhere later). WEBHOOKS_ALLOW_PRIVATE_URLS=true lifts this, and allows
// plain http, for local development and tests.
import { lookup } from "node:dns/promises";
import { BlockList, isIP } from "node:net";
import { validationFailed } from "@/lib/http/errors";

const blocked = new BlockList();
for (const [network, prefix] of [
  ["0.0.0.0", 8], // "this" network
  ["10.0.0.0", 8],
  ["100.64.0.0", 10], // carrier-grade NAT
  ["127.0.0.0", 8],
  ["169.254.0.0", 16], // link-local, cloud metadata
  ["172.16.0.0", 12],
  ["192.0.0.0", 24],
  ["192.168.0.0", 16],
  ["198.18.0.0", 15], // benchmarking
  ["224.0.0.0", 4], // multicast
  ["240.0.0.0", 4], // reserved, broadcast
] as const) {
  blocked.addSubnet(network, prefix, "ipv4");
}
for (const [network, prefix] of [
  ["::", 128], // unspecified
  ["::1", 128],
  ["fc00::", 7], // unique local
  ["fe80::", 10], // link-local
  ["ff00::", 8], // multicast
  ["64:ff9b::", 96], // NAT64 of any IPv4 address
  ["::", 96], // IPv4-compatible (deprecated): `::127.0.0.1` is the IPv4 address inside
  ["2002::", 16], // 6to4: `2002:7f00:1::` carries 127.0.0.1 and is relayed to it
] as const) {
  blocked.addSubnet(network, prefix, "ipv6");
}

/** True for an address a webhook must not reach; an IPv4-mapped IPv6 address is judged as its IPv4 one. */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];
  if (mapped) return blocked.check(mapped, "ipv4");
  const family = isIP(address);
  if (family === 4) return blocked.check(address, "ipv4");
  if (family === 6) return blocked.check(address, "ipv6");
  return true;
}

export function privateUrlsAllowed(env: Record<string, string | undefined> = process.env): boolean {
  return env.WEBHOOKS_ALLOW_PRIVATE_URLS === "true";
}

export class UnsafeWebhookUrl extends Error {}

/** What a developer trying a URL on their own machine needs to know (named in every refusal it would lift). */
export const PRIVATE_URLS_HINT = "For local development, set WEBHOOKS_ALLOW_PRIVATE_URLS=true on the server to allow http:// and private or loopback addresses.";

/** The URL's problem in a sentence a user can act on, or null when it is fine to store. */
export function urlShapeProblem(raw: string, allowPrivate = privateUrlsAllowed()): string | null {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return "Enter a full URL, such as https://example.com/webhooks/sendstream.";
  }
  if (url.protocol === "http:" && !allowPrivate) return `The URL must start with https://; plain http:// is refused. ${PRIVATE_URLS_HINT}`;
  if (url.protocol !== "https:" && !(allowPrivate && url.protocol === "http:")) return "The URL must start with https://.";
  if (url.username || url.password) return "Put credentials in the URL's path or query, not before the host.";
  if (url.hash) return "A URL with a #fragment cannot be called; remove it.";
  return null;
}

/**
 * Resolves the URL's host and throws UnsafeWebhookUrl when any of its addresses is private (or it
 * does not resolve). Returns the addresses, for a connection that uses only what was checked.
 */
export async function assertPublicHost(hostname: string, allowPrivate = privateUrlsAllowed()): Promise<{ address: string; family: number }[]> {
  const host = hostname.replace(/^\[(.*)\]$/, "$1");
  let addresses: { address: string; family: number }[];
  try {
    addresses = isIP(host) ? [{ address: host, family: isIP(host) }] : await lookup(host, { all: true, verbatim: true });
  } catch {
    throw new UnsafeWebhookUrl(`The host ${hostname} could not be resolved.`);
  }
  if (addresses.length === 0) throw new UnsafeWebhookUrl(`The host ${hostname} could not be resolved.`);
  if (!allowPrivate) {
    const internal = addresses.find((entry) => isPrivateAddress(entry.address));
    if (internal) {
      throw new UnsafeWebhookUrl(
        `The host ${hostname} resolves to ${internal.address}, a private or loopback address; webhooks only go to public addresses. ${PRIVATE_URLS_HINT}`,
      );
    }
  }
  return addresses;
}

/** The problem's detail names the setting when it would lift the refusal. */
const detailOf = (message: string) => (message.includes(PRIVATE_URLS_HINT) ? `The URL is refused. ${PRIVATE_URLS_HINT}` : undefined);

/**
 * For a URL about to be stored (a webhook endpoint, an alert's Slack webhook): 422 at `path` when
 * its shape is wrong or its host resolves to a private address.
 */
export async function assertStorableUrl(url: string, path: string): Promise<void> {
  const allowPrivate = privateUrlsAllowed();
  const problem = urlShapeProblem(url, allowPrivate);
  if (problem) throw validationFailed([{ path, code: "invalid_url", message: problem }], detailOf(problem));
  try {
    await assertPublicHost(new URL(url).hostname, allowPrivate);
  } catch (error) {
    if (error instanceof UnsafeWebhookUrl) throw validationFailed([{ path, code: "unsafe_url", message: error.message }], detailOf(error.message));
    throw error;
  }
}
