import { isIP } from "node:net";
import { envSchema } from "@/lib/env";

/** TRUSTED_PROXY_HOPS, read on each call so that tests and scripts can change it. */
export function trustedProxyHops(): number {
  return envSchema.shape.TRUSTED_PROXY_HOPS.parse(process.env.TRUSTED_PROXY_HOPS);
}

/**
 * The client's address as the trusted proxy saw it, or null when it cannot be known.
 *
 * X-Forwarded-For is a list each proxy appends to; everything left of what our own proxies
 * added was written by the client and can say anything. With `hops` proxies in front of the
 * app, the client address is the `hops`-th entry from the right. With 0 (the default) the
 * header is ignored entirely: Next.js only fills it from the socket when the client sent none,
 * so a route cannot tell a real value from a forged one.
 */
export function clientIp(request: Request, hops: number = trustedProxyHops()): string | null {
  if (hops <= 0) return null;
  const header = request.headers.get("x-forwarded-for");
  if (!header) return null;
  const entries = header.split(",").map((entry) => entry.trim());
  if (entries.length < hops) return null;
  return normalizeAddress(entries[entries.length - hops]!);
}

/** An IP address without the port or brackets some proxies add; null for anything else. */
function normalizeAddress(entry: string): string | null {
  let address = entry;
  const bracketed = /^\[([^\]]+)\](?::\d+)?$/.exec(address);
  if (bracketed) address = bracketed[1]!;
  else if (/^\d{1,3}(\.\d{1,3}){3}:\d+$/.test(address)) address = address.slice(0, address.lastIndexOf(":"));
  if (address.toLowerCase().startsWith("::ffff:") && isIP(address.slice(7)) === 4) address = address.slice(7);
  return isIP(address) ? address.toLowerCase() : null;
}
