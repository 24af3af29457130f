export const DEFAULT_AFTER_SIGN_IN = "/campaigns";

/**
 * Where to go after signing in: the callback URL as a same-origin path, or the default.
 *
 * The raw value is resolved the way a browser would (WHATWG URL: backslashes count as slashes,
 * tabs and newlines vanish, `//host` is another host), so no spelling of another origin survives;
 * comparing strings (`startsWith("/")`) let `//evil.example` and `/\evil.example` through.
 */
export function safeCallbackUrl(raw: unknown, appOrigin: string): string {
  if (typeof raw !== "string" || raw.length === 0 || raw.length > 2048) return DEFAULT_AFTER_SIGN_IN;
  let base: URL;
  let target: URL;
  try {
    base = new URL(appOrigin);
    target = new URL(raw, base.origin);
  } catch {
    return DEFAULT_AFTER_SIGN_IN;
  }
  if (target.origin !== base.origin || (target.protocol !== "http:" && target.protocol !== "https:")) return DEFAULT_AFTER_SIGN_IN;
  // `/.//evil.example` normalises to the path `//evil.example`, which a browser reads as a host.
  const path = target.pathname.replace(/^\/+/, "/");
  return `${path}${target.search}${target.hash}`;
}
