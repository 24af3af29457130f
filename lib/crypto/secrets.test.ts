import { createCipheriv, hkdfSync, randomBytes } from "node:crypto";
import { afterEach, describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret, isCurrent, keyFingerprint, keyringFromEnv, maskSecret } from "./secrets";

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

const K1 = "11".repeat(32);
const K2 = "22".repeat(32);

/** A ciphertext as the previous version wrote it: `v1.<iv>.<tag>.<ct>`, no key id. */
function sealV1(plaintext: string, key: Buffer): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ct = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ct.toString("base64url")].join(".");
}
const derived = (secret: string) => Buffer.from(hkdfSync("sha256", secret, "sendstream", "secrets-at-rest", 32));

function useKeys(env: { ENCRYPTION_KEY?: string; ENCRYPTION_KEYS?: string; AUTH_SECRET?: string; NODE_ENV?: string }) {
  delete process.env.ENCRYPTION_KEY;
  delete process.env.ENCRYPTION_KEYS;
  Object.assign(process.env, env);
}

describe("secrets at rest", () => {
  it("round-trips and never repeats a ciphertext", () => {
    useKeys({ AUTH_SECRET: "a".repeat(40) });
    const a = encryptSecret("EAAG-token");
    const b = encryptSecret("EAAG-token");
    expect(a).not.toBe(b);
    expect(a).not.toContain("EAAG");
    expect(decryptSecret(a)).toBe("EAAG-token");
  });

  it("detects tampering, including a swapped key id", () => {
    useKeys({ ENCRYPTION_KEYS: `k2:${K2},k1:${K1}` });
    const sealed = encryptSecret("secret");
    const parts = sealed.split(".");
    expect(() => decryptSecret([...parts.slice(0, 4), Buffer.from("other!").toString("base64url")].join("."))).toThrow();
    expect(() => decryptSecret(["v2", "k1", ...parts.slice(2)].join("."))).toThrow();
  });

  it("cannot be read with another key, and says which key is missing", () => {
    useKeys({ ENCRYPTION_KEY: K1 });
    const sealed = encryptSecret("secret");
    useKeys({ ENCRYPTION_KEY: K2 });
    expect(() => decryptSecret(sealed)).toThrow(new RegExp(`key "${keyFingerprint(Buffer.from(K1, "hex"))}"`));
  });

  it("rotates: new writes carry the current key's id, secrets under the old key still open", () => {
    useKeys({ ENCRYPTION_KEYS: `k1:${K1}` });
    const old = encryptSecret("old-token");
    expect(old.split(".").slice(0, 2)).toEqual(["v2", "k1"]);
    useKeys({ ENCRYPTION_KEYS: `k2:${K2},k1:${K1}` });
    const fresh = encryptSecret("new-token");
    expect(fresh.split(".").slice(0, 2)).toEqual(["v2", "k2"]);
    expect(decryptSecret(old)).toBe("old-token");
    expect(decryptSecret(fresh)).toBe("new-token");
    expect([isCurrent(old), isCurrent(fresh)]).toEqual([false, true]);
  });

  it("keeps what ENCRYPTION_KEY wrote readable once that key moves into ENCRYPTION_KEYS under any id", () => {
    useKeys({ ENCRYPTION_KEY: K1 });
    const sealed = encryptSecret("token");
    expect(sealed.split(".")[1]).toBe(keyFingerprint(Buffer.from(K1, "hex")));
    useKeys({ ENCRYPTION_KEYS: `new:${K2},old:${K1}` });
    expect(decryptSecret(sealed)).toBe("token");
  });

  it("survives a rotated AUTH_SECRET when ENCRYPTION_KEY is set", () => {
    useKeys({ ENCRYPTION_KEY: K1, AUTH_SECRET: "first-session-secret-0123456789abcdef" });
    const sealed = encryptSecret("token");
    process.env.AUTH_SECRET = "rotated-session-secret-0123456789abcdef";
    expect(decryptSecret(sealed)).toBe("token");
  });

  it("still opens v1 ciphertexts: AUTH_SECRET-derived ones and those ENCRYPTION_KEY wrote", () => {
    const authSecret = "legacy-session-secret-0123456789abcdef";
    const fromAuth = sealV1("legacy-token", derived(authSecret));
    const fromKey = sealV1("keyed-token", Buffer.from(K1, "hex"));
    useKeys({ ENCRYPTION_KEYS: `k2:${K2},k1:${K1}`, AUTH_SECRET: authSecret, NODE_ENV: "production" });
    expect(decryptSecret(fromAuth)).toBe("legacy-token");
    expect(decryptSecret(fromKey)).toBe("keyed-token");
    expect(isCurrent(fromKey)).toBe(false);
    process.env.AUTH_SECRET = "another-session-secret-0123456789abcdef";
    expect(() => decryptSecret(fromAuth)).toThrow(/v1/);
  });

  it("in production needs its own key and never derives one from AUTH_SECRET", () => {
    expect(() => keyringFromEnv({ NODE_ENV: "production", AUTH_SECRET: "a".repeat(40) })).toThrow(/ENCRYPTION_KEY is not set/);
    expect(keyringFromEnv({ NODE_ENV: "production", ENCRYPTION_KEY: K1 }).current.id).toMatch(/^h[0-9a-f]{8}$/);
    // The development key has an id of its own, so its ciphertexts are never mistaken for a configured key's.
    expect(keyringFromEnv({ NODE_ENV: "development", AUTH_SECRET: "a".repeat(40) }).current.id).toMatch(/^d[0-9a-f]{8}$/);
  });

  it("refuses a malformed key list without echoing the key", () => {
    expect(() => keyringFromEnv({ ENCRYPTION_KEYS: `k1:${K1.slice(2)}` })).toThrow(/entry 1 \(k1\): the key must be 64 hex/);
    expect(() => keyringFromEnv({ ENCRYPTION_KEYS: `k1:${K1},k1:${K2}` })).toThrow(/twice/);
    expect(() => keyringFromEnv({ ENCRYPTION_KEYS: K1 })).toThrow(/<id>:<64 hex/);
  });

  it("masks all but the last four characters", () => {
    expect(maskSecret("abcdefgh")).toBe("••••efgh");
  });
});
