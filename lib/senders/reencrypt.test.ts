import { createCipheriv, hkdfSync, randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterEach, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { senders } from "@/db/schema";
import { createTestAccount } from "@/lib/testing/factories";
import { reencryptSenderSecrets } from "./reencrypt";
import { getSender, updateSenderSettings } from "./service";

const saved = { ...process.env };
afterEach(() => {
  process.env = { ...saved };
});

const K1 = "11".repeat(32);
const K2 = "22".repeat(32);

function sealV1(plaintext: string, secret: string): string {
  const key = Buffer.from(hkdfSync("sha256", secret, "sendstream", "secrets-at-rest", 32));
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", key, iv);
  const ct = Buffer.concat([cipher.update(plaintext, "utf8"), cipher.final()]);
  return ["v1", iv.toString("base64url"), cipher.getAuthTag().toString("base64url"), ct.toString("base64url")].join(".");
}

describe("reencryptSenderSecrets", () => {
  it("moves every secret to the current key, v1 ones included; the old key and AUTH_SECRET can then go", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    process.env.ENCRYPTION_KEYS = `k1:${K1}`;
    await updateSenderSettings(db, workspaceId, { provider: "whatsapp", phoneNumberId: "1065403522", wabaId: "1022901293", accessToken: "EAA-token-1234", appSecret: "app-secret-5678" });
    // A verify token stored before key ids existed, under the key derived from AUTH_SECRET.
    await db.update(senders).set({ verifyTokenEncrypted: sealV1("verify-9012", process.env.AUTH_SECRET!) }).where(eq(senders.workspaceId, workspaceId));

    process.env.ENCRYPTION_KEYS = `k2:${K2},k1:${K1}`;
    await expect(reencryptSenderSecrets(db, { workspaceId })).resolves.toEqual({ reencrypted: 3, unchanged: 0, keyId: "k2" });
    const [row] = await db.select().from(senders).where(eq(senders.workspaceId, workspaceId));
    for (const sealed of [row!.accessTokenEncrypted, row!.appSecretEncrypted, row!.verifyTokenEncrypted]) {
      expect(sealed!.split(".").slice(0, 2)).toEqual(["v2", "k2"]);
    }
    await expect(reencryptSenderSecrets(db, { workspaceId })).resolves.toEqual({ reencrypted: 0, unchanged: 3, keyId: "k2" });

    process.env.ENCRYPTION_KEYS = `k2:${K2}`;
    process.env.AUTH_SECRET = "a-rotated-session-secret-0123456789abcdef";
    expect(await getSender(db, workspaceId)).toMatchObject({ accessToken: "••••1234", appSecret: "••••5678", verifyToken: "••••9012" });
  });

  it("refuses to run without a configured key rather than re-encrypt under the development key", async () => {
    delete process.env.ENCRYPTION_KEY;
    delete process.env.ENCRYPTION_KEYS;
    await expect(reencryptSenderSecrets(await getDb())).rejects.toThrow(/Set ENCRYPTION_KEYS/);
  });
});
