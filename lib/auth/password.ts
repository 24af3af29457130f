import bcrypt from "bcryptjs";
import { randomBytes, scrypt, timingSafeEqual, type ScryptOptions } from "node:crypto";

/**
 * Password hashes: scrypt, stored as `scrypt$N$r$p$salt$hash` (base64url). Node runs
 * `crypto.scrypt` on the libuv thread pool, so a sign-in no longer freezes the server the way
 * bcryptjs (pure JavaScript on the main thread) did. Parameters: one of OWASP's equivalent scrypt
 * settings (N=2^15, r=8, p=3: 32 MiB and about as much work as N=2^17, p=1 in a quarter of the
 * memory). Older bcrypt hashes still verify, and are replaced on the next successful sign-in.
 */
export const PRODUCTION_PARAMS: ScryptParams = { N: 2 ** 15, r: 8, p: 3 };
// The test runner signs up thousands of users; at production cost their hashing alone was minutes of
// CI. Only Vitest runs with NODE_ENV=test (next dev, next start and the worker never do).
const TEST_PARAMS: ScryptParams = { N: 2 ** 10, r: 8, p: 1 };
const PARAMS = process.env.NODE_ENV === "test" ? TEST_PARAMS : PRODUCTION_PARAMS;
interface ScryptParams {
  N: number;
  r: number;
  p: number;
}
const KEY_LENGTH = 32;
const SALT_LENGTH = 16;

// Compared against when the email is unknown, so both cases take the same time: same parameters as
// new hashes (the key itself never matters: an unknown email is refused whatever it derives).
const DUMMY: ScryptHash = { ...PARAMS, salt: Buffer.from("Cc0Xb6q7aERI3CYI_kfkjg", "base64url"), key: Buffer.alloc(KEY_LENGTH) };

function derive(password: string, salt: Buffer, params: ScryptParams): Promise<Buffer> {
  // scrypt needs 128·N·r bytes; Node's default cap (32 MiB) is just short of that for N=2^15, r=8.
  const options: ScryptOptions = { ...params, maxmem: 256 * params.N * params.r };
  return new Promise((resolve, reject) => {
    scrypt(password.normalize("NFKC"), salt, KEY_LENGTH, options, (error, key) => (error ? reject(error) : resolve(key)));
  });
}

export async function hashPassword(password: string, params: ScryptParams = PARAMS): Promise<string> {
  const salt = randomBytes(SALT_LENGTH);
  const key = await derive(password, salt, params);
  return ["scrypt", params.N, params.r, params.p, salt.toString("base64url"), key.toString("base64url")].join("$");
}

interface ScryptHash extends ScryptParams {
  salt: Buffer;
  key: Buffer;
}

function parseScrypt(hash: string): ScryptHash | null {
  const parts = hash.split("$");
  if (parts.length !== 6 || parts[0] !== "scrypt") return null;
  const [N, r, p] = parts.slice(1, 4).map(Number) as [number, number, number];
  // Bounds keep a tampered row from asking for gigabytes of memory.
  if (![N, r, p].every(Number.isSafeInteger) || N < 2 || N > 2 ** 20 || (N & (N - 1)) !== 0 || r < 1 || r > 32 || p < 1 || p > 16) return null;
  const salt = Buffer.from(parts[4]!, "base64url");
  const key = Buffer.from(parts[5]!, "base64url");
  if (salt.length < 8 || key.length !== KEY_LENGTH) return null;
  return { N, r, p, salt, key };
}

export async function verifyPassword(password: string, hash: string | null | undefined): Promise<boolean> {
  if (hash && /^\$2[aby]\$/.test(hash)) return bcrypt.compare(password, hash);
  const stored = hash ? parseScrypt(hash) : null;
  const compared = stored ?? DUMMY;
  const key = await derive(password, compared.salt, compared);
  return timingSafeEqual(key, compared.key) && stored !== null;
}

/** Whether a stored hash should be replaced by a fresh one (a legacy bcrypt hash, or weaker parameters). */
export function needsRehash(hash: string, params: ScryptParams = PARAMS): boolean {
  const parsed = parseScrypt(hash);
  return !parsed || parsed.N < params.N || parsed.r < params.r || parsed.p < params.p;
}
