import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { senders } from "@/db/schema";
import { toApiError } from "@/lib/http/problem";
import { createTestAccount } from "@/lib/testing/factories";
import { graphError } from "@/lib/testing/fake-graph";
import { fakeGraphForFile } from "@/lib/testing/fake-graph-hooks";
import { getSender, loadSenderCredentials, testSenderConnection, updateSenderSettings } from "./service";

const fakeGraph = fakeGraphForFile();

const whatsapp = {
  provider: "whatsapp" as const,
  phoneNumberId: "106540352242922",
  wabaId: "102290129340398",
  accessToken: "EAAG-secret-token-9876",
  appSecret: "app-secret-abcd",
  verifyToken: "verify-me-1234",
};

describe("sender settings", () => {
  it("starts as the sandbox with an unlimited tier", async () => {
    const { workspaceId } = await createTestAccount();
    expect(await getSender(await getDb(), workspaceId)).toMatchObject({
      provider: "sandbox",
      configured: true,
      accessToken: null,
      messagingTierLabel: "Sandbox — unlimited",
      throughputPerSecond: 80,
    });
  });

  it("stores WhatsApp secrets encrypted, shows them masked and keeps them when left blank", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const view = await updateSenderSettings(db, workspaceId, whatsapp);
    expect(view).toMatchObject({ provider: "whatsapp", configured: true, accessToken: "••••9876", appSecret: "••••abcd", verifyToken: "••••1234" });
    expect(JSON.stringify(view)).not.toContain("secret-token");

    const [row] = await db.select().from(senders).where(eq(senders.workspaceId, workspaceId));
    expect(row?.accessTokenEncrypted).toBeTruthy();
    expect(row?.accessTokenEncrypted).not.toContain("EAAG");

    await updateSenderSettings(db, workspaceId, { ...whatsapp, accessToken: "", appSecret: undefined, verifyToken: "  " });
    const credentials = await loadSenderCredentials(db, workspaceId);
    expect(credentials).toMatchObject({ accessToken: whatsapp.accessToken, appSecret: whatsapp.appSecret, verifyToken: whatsapp.verifyToken });

    // Back to the sandbox keeps the credentials for later.
    expect((await updateSenderSettings(db, workspaceId, { provider: "sandbox" })).provider).toBe("sandbox");
    expect((await loadSenderCredentials(db, workspaceId)).accessToken).toBe(whatsapp.accessToken);
  });

  it("requires the access token the first time and valid ids", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    await expect(updateSenderSettings(db, workspaceId, { ...whatsapp, accessToken: "" })).rejects.toMatchObject({ status: 422 });
    // The ids are checked by the input schema (a ZodError); routes answer it as this problem.
    await expect(updateSenderSettings(db, workspaceId, { ...whatsapp, phoneNumberId: "abc" }).catch(toApiError)).resolves.toMatchObject({
      status: 422,
      code: "validation_failed",
      errors: [expect.objectContaining({ path: "phoneNumberId" })],
    });
    expect((await getSender(db, workspaceId)).provider).toBe("sandbox");
  });

  it("tests the connection against the Graph API and remembers the limits", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    await updateSenderSettings(db, workspaceId, whatsapp);
    fakeGraph().handle((req) =>
      req.path === `/v23.0/${whatsapp.phoneNumberId}`
        ? { body: { display_phone_number: "+1 555-0100", verified_name: "Demo", throughput: { level: "STANDARD" }, whatsapp_business_manager_messaging_limit: "TIER_10K" } }
        : { status: 404, body: {} },
    );
    const result = await testSenderConnection(db, workspaceId, { phoneNumberId: whatsapp.phoneNumberId });
    expect(result).toMatchObject({ ok: true, displayPhoneNumber: "+1 555-0100", throughputPerSecond: 80, messagingTierLabel: "10,000 customers / 24 h" });
    expect(fakeGraph().requests.at(-1)!.headers.authorization).toBe(`Bearer ${whatsapp.accessToken}`);
    expect(await getSender(db, workspaceId)).toMatchObject({ displayPhoneNumber: "+1 555-0100", messagingTier: "TIER_10K" });
  });

  it("reports the exact Graph error", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    fakeGraph().handle(() => graphError(190, "Error validating access token: Session has expired.", 401));
    const result = await testSenderConnection(db, workspaceId, { phoneNumberId: "106540352242922", accessToken: "EAAold" });
    expect(result).toEqual({
      ok: false,
      error: {
        kind: "graph",
        message: "(#190) Error validating access token: Session has expired.",
        code: 190,
        subcode: null,
        details: "Error validating access token: Session has expired.",
        httpStatus: 401,
      },
    });
  });
});
