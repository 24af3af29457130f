import { randomFillSync } from "node:crypto";

export const BASE62 = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz";

// Random bytes are drawn from the CSPRNG in blocks and handed out once each: one call per block
// instead of one per identifier (the trigger endpoint makes several identifiers per request).
const POOL_SIZE = 4096;
const pool = Buffer.alloc(POOL_SIZE);
let poolOffset = POOL_SIZE;

function nextRandomByte(): number {
  if (poolOffset === POOL_SIZE) {
    randomFillSync(pool);
    poolOffset = 0;
  }
  return pool[poolOffset++]!;
}

/**
 * Uniformly random base62 string. Bytes ≥ 248 are rejected so that every character is
 * equally likely (248 = 4 × 62; taking `byte % 62` over the full range would bias 0–7).
 */
export function randomBase62(length: number): string {
  let out = "";
  while (out.length < length) {
    const byte = nextRandomByte();
    if (byte < 248) out += BASE62[byte % 62];
  }
  return out;
}

/** Opaque, prefixed identifier such as `cmp_4Fh9…` (about 131 bits of randomness). */
export function newId(prefix: string): string {
  return `${prefix}_${randomBase62(22)}`;
}
