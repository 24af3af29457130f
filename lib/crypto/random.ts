import { randomBytes } from "node:crypto";

export const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

/**
 * Uniformly random base62 string. Bytes ≥ 248 are rejected so that every character is
 * equally likely (248 = 4 × 62; taking `byte % 62` over the full range would bias 0–7).
 */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const bytes = randomBytes(Math.ceil((length - out.length) * 1.1) + 4);
    for (const byte of bytes) {
      if (byte >= 248) continue;
      out += BASE62[byte % 62];
      if (out.length === length) break;
    }
  }
  return out;
}

/** Opaque, prefixed identifier such as `cmp_4Fh9…` (about 131 bits of randomness). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(22)}`;
}
