import { afterEach, describe, expect, it } from "vitest";
import { decryptSecret, encryptSecret, maskSecret } from "./secrets";

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

describe("secrets at rest", () => {
  it("round-trips and never repeats a ciphertext", () => {
    process.env.AUTH_SECRET = "a".repeat(40);
    const a = encryptSecret("EAAG-token");
    const b = encryptSecret("EAAG-token");
    expect(a).not.toBe(b);
    expect(a).not.toContain("EAAG");
    expect(decryptSecret(a)).toBe("EAAG-token");
  });

  it("detects tampering", () => {
    process.env.AUTH_SECRET = "a".repeat(40);
    const sealed = encryptSecret("secret");
    const parts = sealed.split(".");
    parts[3] = Buffer.from("other!").toString("base64url");
    expect(() => decryptSecret(parts.join("."))).toThrow();
  });

  it("cannot be read with another key", () => {
    process.env.ENCRYPTION_KEY = "11".repeat(32);
    const sealed = encryptSecret("secret");
    process.env.ENCRYPTION_KEY = "22".repeat(32);
    expect(() => decryptSecret(sealed)).toThrow();
  });

  it("masks all but the last four characters", () => {
    expect(maskSecret("abcdefgh")).toBe("••••efgh");
  });
});
