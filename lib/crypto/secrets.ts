import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";

// Secrets at rest (WhatsApp access token, app secret, verify token): AES-256-GCM under a key of
// its own, never the session secret, so that rotating AUTH_SECRET signs everybody out but leaves
// the stored credentials readable.
//
//   v2.<keyId>.<iv>.<tag>.<ciphertext>   (base64url; the key id is authenticated data)
//   v1.<iv>.<tag>.<ciphertext>           (before key ids: read only, with any key of the ring or the
//                                         key derived from AUTH_SECRET; `npm run secrets:reencrypt`
//                                         moves them to the current key)
//
// The keyring: ENCRYPTION_KEYS=`k2:<64 hex>,k1:<64 hex>` (the first writes, all read) or
// ENCRYPTION_KEY=<64 hex> (one key, id `h` + the start of its SHA-256). A key listed in
// ENCRYPTION_KEYS also answers to that hash id, so moving from ENCRYPTION_KEY to a ring keeps what
// it wrote readable. Outside production only, with neither set, a key derived from AUTH_SECRET
// (id `d` + its hash) keeps development and tests free of setup.

const V1 = "v1";
const V2 = "v2";
const KEY_HEX = /^[0-9a-fA-F]{64}$/;
const KEY_ID = /^[A-Za-z0-9_-]{1,32}$/;

export interface EncryptionKey {
  id: string;
  key: Buffer;
}

export interface Keyring {
  /** New ciphertexts use this key. */
  current: EncryptionKey;
  /** Every key that may decrypt, by id (hash ids included). */
  byId: Map<string, Buffer>;
  /** The key derived from AUTH_SECRET, for `v1` ciphertexts written before keys had ids. */
  legacy: Buffer | null;
}

/** `h` + 8 hex characters of the key's SHA-256: an id that names a key without revealing it. */
export function keyFingerprint(key: Buffer, prefix = "h"): string {
  return prefix + createHash("sha256").update(key).digest("hex").slice(0, 8);
}

function derivedFromAuthSecret(secret: string): Buffer {
  return Buffer.from(hkdfSync("sha256", secret, "sendstream", "secrets-at-rest", 32));
}

/** Parses `id:hex,id:hex`; throws a message naming what is wrong (never the key). */
export function parseKeyList(value: string): EncryptionKey[] {
  const keys = value
    .split(",")
    .map((entry) => entry.trim())
    .filter(Boolean)
    .map((entry, index) => {
      const colon = entry.indexOf(":");
      const id = entry.slice(0, colon);
      const hex = entry.slice(colon + 1);
      if (colon < 1 || !KEY_ID.test(id)) throw new Error(`ENCRYPTION_KEYS entry ${index + 1}: write it as <id>:<64 hex characters> (id: letters, digits, - or _).`);
      if (!KEY_HEX.test(hex)) throw new Error(`ENCRYPTION_KEYS entry ${index + 1} (${id}): the key must be 64 hex characters (32 bytes).`);
      return { id, key: Buffer.from(hex, "hex") };
    });
  if (keys.length === 0) throw new Error("ENCRYPTION_KEYS is empty.");
  if (new Set(keys.map((k) => k.id)).size !== keys.length) throw new Error("ENCRYPTION_KEYS lists an id twice.");
  return keys;
}

type SecretsEnv = Partial<Record<"ENCRYPTION_KEYS" | "ENCRYPTION_KEY" | "AUTH_SECRET" | "NEXTAUTH_SECRET" | "NODE_ENV", string>>;

export function keyringFromEnv(env: SecretsEnv = process.env): Keyring {
  const authSecret = env.AUTH_SECRET || env.NEXTAUTH_SECRET;
  const legacy = authSecret ? derivedFromAuthSecret(authSecret) : null;
  let keys: EncryptionKey[];
  if (env.ENCRYPTION_KEYS) {
    keys = parseKeyList(env.ENCRYPTION_KEYS);
  } else if (env.ENCRYPTION_KEY) {
    if (!KEY_HEX.test(env.ENCRYPTION_KEY)) throw new Error("ENCRYPTION_KEY must be 64 hex characters (32 bytes).");
    const key = Buffer.from(env.ENCRYPTION_KEY, "hex");
    keys = [{ id: keyFingerprint(key), key }];
  } else if (env.NODE_ENV === "production") {
    throw new Error("ENCRYPTION_KEY is not set. Production needs its own key for stored credentials: `openssl rand -hex 32`.");
  } else if (legacy) {
    keys = [{ id: keyFingerprint(legacy, "d"), key: legacy }];
  } else {
    throw new Error("Set ENCRYPTION_KEY (or, in development, AUTH_SECRET) to store WhatsApp credentials.");
  }
  const byId = new Map<string, Buffer>();
  // What the development key wrote stays readable once a real key is configured, until re-encrypted.
  if (legacy) byId.set(keyFingerprint(legacy, "d"), legacy);
  for (const { id, key } of keys) {
    byId.set(id, key);
    byId.set(keyFingerprint(key), key);
  }
  return { current: keys[0]!, byId, legacy };
}

let memo: { signature: string; keyring: Keyring } | undefined;

/** The keyring of the current environment, rebuilt only when a variable it depends on changes. */
function keyring(): Keyring {
  const env = process.env;
  const signature = [env.ENCRYPTION_KEYS, env.ENCRYPTION_KEY, env.AUTH_SECRET, env.NEXTAUTH_SECRET, env.NODE_ENV].join("\u0000");
  if (memo?.signature !== signature) memo = { signature, keyring: keyringFromEnv(env) };
  return memo.keyring;
}

/** AES-256-GCM under the current key; output `v2.<keyId>.<iv>.<tag>.<ciphertext>`. */
export function encryptSecret(plaintext: string, ring: Keyring = keyring()): string {
  const { id, key } = ring.current;
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  cipher.setAAD(Buffer.from(id, "utf8"));
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [V2, id, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
}

function open(key: Buffer, iv: string, tag: string, ciphertext: string, aad: string | null): string {
  const decipher = createDecipheriv("aes-256-gcm", key, Buffer.from(iv, "base64url"));
  if (aad !== null) decipher.setAAD(Buffer.from(aad, "utf8"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}

export function decryptSecret(sealed: string, ring: Keyring = keyring()): string {
  const parts = sealed.split(".");
  if (parts[0] === V2 && parts.length === 5) {
    const [, id, iv, tag, ciphertext] = parts as [string, string, string, string, string];
    const key = ring.byId.get(id);
    if (!key) throw new Error(`The secret was encrypted with key "${id}", which is not in ENCRYPTION_KEYS / ENCRYPTION_KEY.`);
    return open(key, iv, tag, ciphertext, id);
  }
  if (parts[0] === V1 && parts.length === 4) {
    const [, iv, tag, ciphertext] = parts as [string, string, string, string];
    // v1 used ENCRYPTION_KEY when set and the AUTH_SECRET-derived key otherwise: the tag tells which.
    const candidates = [...new Set([...ring.byId.values(), ...(ring.legacy ? [ring.legacy] : [])])];
    for (const key of candidates) {
      try {
        return open(key, iv, tag, ciphertext, null);
      } catch {
        // not this key
      }
    }
    throw new Error("The secret (v1) cannot be decrypted with any configured key or the key derived from AUTH_SECRET.");
  }
  throw new Error("Unrecognised encrypted secret format.");
}

/** Whether `sealed` is already under the current key (nothing for a re-encryption to do). */
export function isCurrent(sealed: string, ring: Keyring = keyring()): boolean {
  const parts = sealed.split(".");
  return parts[0] === V2 && parts.length === 5 && parts[1] === ring.current.id;
}

/** The keyring now in force: for a re-encryption run to use one ring throughout. */
export function currentKeyring(): Keyring {
  return keyring();
}

/** `••••wxyz` for showing that a secret is set without revealing it. */
export function maskSecret(plaintext: string): string {
  return `••••${plaintext.slice(-4)}`;
}

export function sha256Hex(value: string | Uint8Array): string {
  return createHash("sha256").update(value).digest("hex");
}
