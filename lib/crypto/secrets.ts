import { createCipheriv, createDecipheriv, createHash, hkdfSync, randomBytes } from "node:crypto";

const VERSION = "v1";

/**
 * 32-byte key for secrets at rest: ENCRYPTION_KEY (64 hex chars) when set, otherwise derived from
 * AUTH_SECRET so a self-hosted install works without another variable.
 */
function encryptionKey(): Buffer {
  const explicit = process.env.ENCRYPTION_KEY;
  if (explicit) return Buffer.from(explicit, "hex");
  const secret = process.env.AUTH_SECRET ?? process.env.NEXTAUTH_SECRET;
  if (!secret) throw new Error("Set ENCRYPTION_KEY or AUTH_SECRET to store WhatsApp credentials.");
  return Buffer.from(hkdfSync("sha256", secret, "sendstream", "secrets-at-rest", 32));
}

/** AES-256-GCM; output `v1.<iv>.<tag>.<ciphertext>` in base64url. */
export function encryptSecret(plaintext: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", encryptionKey(), iv);
  const ciphertext = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return [VERSION, iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ciphertext.toString("base64url")].join(".");
}

export function decryptSecret(sealed: string): string {
  const [version, iv, tag, ciphertext] = sealed.split(".");
  if (version !== VERSION || !iv || !tag || ciphertext === undefined) throw new Error("Unrecognised encrypted secret format.");
  const decipher = createDecipheriv("aes-256-gcm", encryptionKey(), Buffer.from(iv, "base64url"));
  decipher.setAuthTag(Buffer.from(tag, "base64url"));
  return Buffer.concat([decipher.update(Buffer.from(ciphertext, "base64url")), decipher.final()]).toString("utf8");
}

/** `••••wxyz` for showing that a secret is set without revealing it. */
export function maskSecret(plaintext: string): string {
  return `••••${plaintext.slice(-4)}`;
}

export function sha256Hex(value: string | Uint8Array): string {
  return createHash("sha256").update(value).digest("hex");
}
