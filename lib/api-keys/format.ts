import { crc32 } from "node:zlib";
import { BASE62, randomBase62 } from "@/lib/crypto/random";
import { sha256Hex } from "@/lib/crypto/secrets";

/**
 * API key format: `ss_` + 32 random base62 characters (≈190 bits) + a 6-character base62 CRC32
 * of the random part. The checksum is not a security control: it lets us reject typos and garbage
 * without touching the database, and gives secret scanners a pattern with few false positives.
 */
export const API_KEY_PREFIX = "ss_";
export const API_KEY_RANDOM_LENGTH = 32;
export const API_KEY_CHECKSUM_LENGTH = 6;
export const API_KEY_LENGTH = API_KEY_PREFIX.length + API_KEY_RANDOM_LENGTH + API_KEY_CHECKSUM_LENGTH;
export const API_KEY_PATTERN = /^ss_[0-9A-Za-z]{38}$/;

/** CRC32 of `value` as exactly 6 base62 characters (62^6 > 2^32, so it always fits). */
export function apiKeyChecksum(value: string): string {
  let n = crc32(value);
  let out = "";
  for (let i = 0; i < API_KEY_CHECKSUM_LENGTH; i++) {
    out = BASE62[n % 62] + out;
    n = Math.floor(n / 62);
  }
  return out;
}

export function generateApiKey(): string {
  const random = randomBase62(API_KEY_RANDOM_LENGTH);
  return `${API_KEY_PREFIX}${random}${apiKeyChecksum(random)}`;
}

/** Shape and checksum only; says nothing about whether the key exists. */
export function isWellFormedApiKey(value: string): boolean {
  if (value.length !== API_KEY_LENGTH || !API_KEY_PATTERN.test(value)) return false;
  const random = value.slice(API_KEY_PREFIX.length, API_KEY_PREFIX.length + API_KEY_RANDOM_LENGTH);
  return value.slice(-API_KEY_CHECKSUM_LENGTH) === apiKeyChecksum(random);
}

/** What is stored and looked up: SHA-256 hex of the full key. */
export function hashApiKey(key: string): string {
  return sha256Hex(key);
}

/** `ss_Ab12…wxyz`: enough to recognise a key in a list, useless to an attacker. */
export function displayApiKey(key: string): string {
  return `${key.slice(0, API_KEY_PREFIX.length + 4)}…${key.slice(-4)}`;
}
