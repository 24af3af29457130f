// The shape of every dynamic path segment, checked before a handler (or a page) touches the database:
// a segment no Sendstream id can have (a NUL, a quote, a non-ASCII character, 500 characters) is a
// 404, never a database error. Also used by proxy.ts for paths that cannot be decoded at all.
import { notFound } from "./errors";

/** What `newId` makes (`cmp_4Fh9…`): a lowercase prefix, `_`, base62. */
export const ID_PATTERN = /^[a-z]{2,8}_[0-9A-Za-z]{1,64}$/;

/** Segments that are not ids, by their name in the route's folder (`[token]`, `[idOrPhone]`). */
const SHAPES: Record<string, RegExp> = {
  /** An invitation link's token: random bytes, base64url. */
  token: /^[A-Za-z0-9_-]{1,128}$/,
  /** A contact's id or its phone number (`+1 415…`, `+` possibly still as `%2B`); the contacts service says which. */
  idOrPhone: /^[0-9A-Za-z_+%() .-]{1,64}$/,
};

/** Whether a dynamic segment named `name` (`id`, `userId`, `token`…) has a shape the app could have issued. */
export function isPathParamShape(name: string, value: string): boolean {
  return (SHAPES[name] ?? ID_PATTERN).test(value);
}

/**
 * Throws 404 for the first segment whose shape no resource has; returns the params unchanged. A
 * route without dynamic segments gets no params object from Next's production server.
 */
export function assertPathParams<P extends Record<string, string | string[] | undefined>>(params: P | undefined | null): P {
  for (const [name, value] of Object.entries(params ?? {})) {
    if (typeof value === "string" && !isPathParamShape(name, value)) throw unknownResource();
  }
  return (params ?? {}) as P;
}

export const unknownResource = () => notFound("Nothing exists at this address: the path names an id no resource has.");

/**
 * Whether a raw (still percent-encoded) path decodes to text: a malformed escape (`%zz`), bytes
 * that are not UTF-8 (`%ff`) or a control character (`%00`) make it a path nothing answers to.
 */
export function isDecodablePath(rawPathname: string): boolean {
  let decoded: string;
  try {
    decoded = decodeURIComponent(rawPathname);
  } catch {
    return false;
  }
  return !/[\u0000-\u001f\u007f]/.test(decoded);
}
