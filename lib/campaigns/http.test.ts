import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { ApiError } from "@/lib/http/errors";
import { createTestAccount } from "@/lib/testing/factories";
import { readOptionalJson, runCampaignAction } from "./http";
import { createCampaign } from "./service";

const post = (init: RequestInit = {}) => new Request("http://app.test/api/v1/campaigns/x/deploy", { method: "POST", ...init });

describe("readOptionalJson", () => {
  it("treats a request without a body as an empty object", async () => {
    expect(await readOptionalJson(post())).toEqual({});
  });

  it("parses a JSON body and refuses other media types and broken JSON", async () => {
    expect(await readOptionalJson(post({ body: '{"version":3}', headers: { "Content-Type": "application/json" } }))).toEqual({ version: 3 });
    await expect(readOptionalJson(post({ body: "version=3", headers: { "Content-Type": "text/plain" } }))).rejects.toMatchObject({ status: 415 });
    await expect(readOptionalJson(post({ body: "{", headers: { "Content-Type": "application/json" } }))).rejects.toMatchObject({ status: 400 });
  });
});

describe("runCampaignAction", () => {
  it("rejects a bad version and reports deployment details only once deployed", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const campaign = await createCampaign(db, workspaceId, { name: "Draft" });
    await expect(runCampaignAction(db, workspaceId, campaign.id, "deploy", { version: "one" })).rejects.toMatchObject({
      status: 422,
      code: "validation_failed",
      errors: [expect.objectContaining({ path: "version" })],
    });
    await expect(runCampaignAction(db, workspaceId, campaign.id, "deploy", { version: 1, force: true })).rejects.toMatchObject({
      status: 422,
      code: "validation_failed",
      errors: [expect.objectContaining({ path: "force" })],
    });
    const error = await runCampaignAction(db, workspaceId, campaign.id, "deploy", {}).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).code).toBe("deploy_checks_failed");
    const archived = await runCampaignAction(db, workspaceId, campaign.id, "archive", null, "http://origin.test");
    expect(archived.status).toBe("archived");
    expect(archived.deployment).toBeNull();
  });
});
