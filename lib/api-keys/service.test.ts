import { eq } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ZodError } from "zod";
import { getDb } from "@/db";
import { apiKeys, auditEvents } from "@/db/schema";
import { ApiError } from "@/lib/http/errors";
import { createTestAccount } from "@/lib/testing/factories";
import { displayApiKey, hashApiKey, isWellFormedApiKey } from "./format";
import { auditActorFromRequest, createApiKey, deleteApiKey, listApiKeys, MAX_ACTIVE_KEYS_PER_WORKSPACE, type AuditActor } from "./service";

async function account() {
  const created = await createTestAccount({ name: "Grace Hopper" });
  const actor: AuditActor = { userId: created.id, ip: "203.0.113.7", userAgent: "vitest" };
  return { ...created, actor };
}

async function thrown(promise: Promise<unknown>): Promise<unknown> {
  return promise.then(
    () => {
      throw new Error("expected a rejection");
    },
    (error: unknown) => error,
  );
}

const KEY_PATTERN_ANYWHERE = /ss_[0-9A-Za-z]{38}/;

describe("API key service", () => {
  it("creates a well-formed key, stores only its hash and a display form, and audits without the key", async () => {
    const db = await getDb();
    const owner = await account();
    const created = await createApiKey(db, owner.workspaceId, owner.actor, { name: "  Shopify store  " });
    expect(isWellFormedApiKey(created.key)).toBe(true);
    expect(created).toEqual({
      id: expect.stringMatching(/^key_/),
      name: "Shopify store",
      key: created.key,
      displayKey: displayApiKey(created.key),
      createdAt: expect.any(String),
      scope: { type: "full" },
    });
    const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, created.id));
    expect(row).toMatchObject({ keyHash: hashApiKey(created.key), displayKey: created.displayKey, createdBy: owner.id });
    expect(JSON.stringify(row)).not.toContain(created.key);

    const audit = await db.select().from(auditEvents).where(eq(auditEvents.targetId, created.id));
    expect(audit).toHaveLength(1);
    expect(audit[0]).toMatchObject({
      workspaceId: owner.workspaceId,
      actorUserId: owner.id,
      action: "api_key.created",
      targetType: "api_key",
      metadata: { name: "Shopify store", displayKey: created.displayKey },
      ip: "203.0.113.7",
      userAgent: "vitest",
    });
    expect(JSON.stringify(audit)).not.toContain(created.key);
    expect(JSON.stringify(audit)).not.toContain(hashApiKey(created.key));
  });

  it("lists the workspace's keys, newest first, without the key or its hash", async () => {
    const db = await getDb();
    const owner = await account();
    const other = await account();
    const first = await createApiKey(db, owner.workspaceId, owner.actor, { name: "First" });
    const second = await createApiKey(db, owner.workspaceId, owner.actor, { name: "<script>alert(1)</script>" });
    await createApiKey(db, other.workspaceId, other.actor, { name: "Not mine" });
    const list = await listApiKeys(db, owner.workspaceId);
    expect(list.map((item) => item.id)).toEqual([second.id, first.id]);
    expect(list[1]).toEqual({
      id: first.id,
      name: "First",
      displayKey: first.displayKey,
      createdAt: first.createdAt,
      lastUsedAt: null,
      createdBy: { id: owner.id, name: "Grace Hopper" },
      scope: { type: "full" },
    });
    const serialized = JSON.stringify(list);
    expect(serialized).not.toMatch(KEY_PATTERN_ANYWHERE);
    expect(serialized).not.toContain(hashApiKey(first.key));
    expect(list[0]!.name).toBe("<script>alert(1)</script>");
  });

  it("validates the name: required, 1–100 characters after trimming, no control characters", async () => {
    const db = await getDb();
    const owner = await account();
    for (const input of [{}, { name: "" }, { name: "   " }, { name: "x".repeat(101) }, { name: "a\u0000b" }, { name: 42 }, null, "name"]) {
      const error = await thrown(createApiKey(db, owner.workspaceId, owner.actor, input));
      expect(error, JSON.stringify(input)).toBeInstanceOf(ZodError);
    }
    const longest = await createApiKey(db, owner.workspaceId, owner.actor, { name: "é".repeat(100) });
    expect(longest.name).toHaveLength(100);
    expect(await listApiKeys(db, owner.workspaceId)).toHaveLength(1);
  });

  it("deletes a key with its audit row; a second delete and another workspace's key are 404", async () => {
    const db = await getDb();
    const owner = await account();
    const intruder = await account();
    const created = await createApiKey(db, owner.workspaceId, owner.actor, { name: "Zapier" });

    const crossWorkspace = await thrown(deleteApiKey(db, intruder.workspaceId, intruder.actor, created.id));
    expect(crossWorkspace).toBeInstanceOf(ApiError);
    expect((crossWorkspace as ApiError).status).toBe(404);
    expect(await listApiKeys(db, owner.workspaceId)).toHaveLength(1);

    await deleteApiKey(db, owner.workspaceId, owner.actor, created.id);
    expect(await listApiKeys(db, owner.workspaceId)).toEqual([]);
    const again = await thrown(deleteApiKey(db, owner.workspaceId, owner.actor, created.id));
    expect((again as ApiError).status).toBe(404);
    expect((await thrown(deleteApiKey(db, owner.workspaceId, owner.actor, "key_missing"))) as ApiError).toMatchObject({ status: 404 });

    const audit = await db.select().from(auditEvents).where(eq(auditEvents.targetId, created.id));
    expect(audit.map((event) => event.action).sort()).toEqual(["api_key.created", "api_key.deleted"]);
    expect(audit.find((event) => event.action === "api_key.deleted")).toMatchObject({
      workspaceId: owner.workspaceId,
      actorUserId: owner.id,
      metadata: { name: "Zapier", displayKey: created.displayKey },
    });
    expect(audit.filter((event) => event.workspaceId === intruder.workspaceId)).toEqual([]);
  });

  it("caps active keys per workspace and writes nothing past the cap", async () => {
    const db = await getDb();
    const owner = await account();
    const rows = Array.from({ length: MAX_ACTIVE_KEYS_PER_WORKSPACE }, (_, i) => ({
      id: `key_cap_${owner.workspaceId}_${i}`,
      workspaceId: owner.workspaceId,
      name: `Key ${i}`,
      keyHash: hashApiKey(`${owner.workspaceId}-${i}`),
      displayKey: "ss_0000…0000",
    }));
    await db.insert(apiKeys).values(rows);
    const error = await thrown(createApiKey(db, owner.workspaceId, owner.actor, { name: "One too many" }));
    expect(error).toMatchObject({ status: 409, code: "api_key_limit_reached" });
    expect(await db.select().from(auditEvents).where(eq(auditEvents.workspaceId, owner.workspaceId))).toEqual([]);
    expect(await db.$count(apiKeys, eq(apiKeys.workspaceId, owner.workspaceId))).toBe(MAX_ACTIVE_KEYS_PER_WORKSPACE);
    await deleteApiKey(db, owner.workspaceId, owner.actor, rows[0]!.id);
    await expect(createApiKey(db, owner.workspaceId, owner.actor, { name: "Fits again" })).resolves.toMatchObject({ name: "Fits again" });
  });

  it("takes the audit address from the hop the trusted proxy added, never from what the client wrote", () => {
    const request = new Request("http://localhost/api/keys", {
      headers: { "x-forwarded-for": "198.51.100.4, 203.0.113.9", "user-agent": "Mozilla/5.0" },
    });
    const user = { type: "user", id: "usr_1", email: "a@example.test", name: "A" } as const;
    const saved = process.env.TRUSTED_PROXY_HOPS;
    try {
      delete process.env.TRUSTED_PROXY_HOPS;
      expect(auditActorFromRequest(request, user)).toEqual({ userId: "usr_1", apiKeyId: null, ip: null, userAgent: "Mozilla/5.0" });
      process.env.TRUSTED_PROXY_HOPS = "1";
      expect(auditActorFromRequest(request, user)).toEqual({ userId: "usr_1", apiKeyId: null, ip: "203.0.113.9", userAgent: "Mozilla/5.0" });
      expect(auditActorFromRequest(new Request("http://localhost/"), user)).toEqual({ userId: "usr_1", apiKeyId: null, ip: null, userAgent: null });
      expect(auditActorFromRequest(request, { type: "api_key", id: "key_1", name: "CRM" })).toMatchObject({ userId: null, apiKeyId: "key_1" });
    } finally {
      if (saved === undefined) delete process.env.TRUSTED_PROXY_HOPS;
      else process.env.TRUSTED_PROXY_HOPS = saved;
    }
  });
});
