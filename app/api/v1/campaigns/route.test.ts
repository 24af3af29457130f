import { beforeAll, describe, expect, it } from "vitest";
import { createApiAccount, callRoute, type ApiAccount } from "@/lib/testing/api-factories";
import { parseStrict } from "@/lib/http/request";
import { campaignPageSchema, campaignSchema } from "@/lib/openapi/schemas";
import { GET, POST, DELETE } from "./route";
import { POST as ARCHIVE } from "./[id]/archive/route";

type Page = { data: { id: string; name: string; status: string }[]; nextCursor: string | null };

let owner: ApiAccount;
let other: ApiAccount;

const create = (account: ApiAccount, body: unknown) => callRoute(POST, "POST", "/api/v1/campaigns", { key: account.key, body });
const list = (account: ApiAccount, query = "") => callRoute<Page>(GET, "GET", `/api/v1/campaigns${query}`, { key: account.key });

beforeAll(async () => {
  owner = await createApiAccount();
  other = await createApiAccount();
});

describe("POST /api/v1/campaigns", () => {
  it("creates a draft trigger campaign: 201, Location, the documented shape", async () => {
    const created = await create(owner, { name: "  Welcome  " });
    expect(created.status).toBe(201);
    expect(created.headers.get("location")).toBe(`/api/v1/campaigns/${created.body.id}`);
    expect(created.headers.get("cache-control")).toBe("no-store");
    const campaign = parseStrict(campaignSchema, created.body);
    expect(campaign).toMatchObject({ name: "Welcome", kind: "trigger", status: "draft", version: 1, deployment: null, templateId: null });
    expect(campaign.id).toMatch(/^cmp_/);
    expect(campaign.createdAt).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/);
  });

  it("422 with per-field errors for invalid and unknown fields, and bulk members on a trigger campaign", async () => {
    const invalid = await create(owner, { name: "", color: "red" });
    expect(invalid.status).toBe(422);
    expect(invalid.headers.get("content-type")).toBe("application/problem+json");
    expect(invalid.body).toMatchObject({ type: "/docs/api#error-validation_failed", status: 422 });
    expect((invalid.body.errors as { path: string; code: string }[]).map((e) => [e.path, e.code])).toEqual(
      expect.arrayContaining([
        ["color", "unrecognized_key"],
        ["name", "too_small"],
      ]),
    );
    const snake = await create(owner, { name: "x", rate_limit_per_minute: 5 });
    expect(snake.status).toBe(422);
    expect(snake.body.errors).toEqual([expect.objectContaining({ path: "rate_limit_per_minute", code: "unrecognized_key" })]);
    const unstorable = await create(owner, { name: "Order\u0000 confirmation" });
    expect(unstorable.status).toBe(422);
    expect(unstorable.body.errors).toEqual([expect.objectContaining({ path: "name", code: "invalid_characters" })]);
    const bulkOnly = await create(owner, { name: "Newsletter", sendRatePerSecond: 10 });
    expect(bulkOnly.status).toBe(422);
    expect(bulkOnly.body.errors).toEqual([expect.objectContaining({ path: "sendRatePerSecond" })]);
    expect((await list(owner, "?limit=100")).body.data.map((c) => c.name)).not.toContain("Newsletter");
  });

  it("400 for malformed JSON, 415 for other content types, 401 without a key", async () => {
    expect((await create(owner, "{name:")).status).toBe(400);
    const deep = await create(owner, '{"name":' + "[".repeat(5000) + "]".repeat(5000) + "}");
    expect(deep.status).toBe(400);
    expect(deep.body.type).toBe("/docs/api#error-malformed_json");
    const form = await callRoute(POST, "POST", "/api/v1/campaigns", { key: owner.key, body: "name=x", headers: { "content-type": "application/x-www-form-urlencoded" } });
    expect(form.status).toBe(415);
    const anonymous = await callRoute(POST, "POST", "/api/v1/campaigns", { body: { name: "x" } });
    expect(anonymous.status).toBe(401);
    expect(anonymous.headers.get("www-authenticate")).toContain('Bearer realm="sendstream"');
  });
});

describe("GET /api/v1/campaigns", () => {
  it("pages newest first with an opaque cursor, without other workspaces' campaigns", async () => {
    const account = await createApiAccount();
    const names = ["one", "two", "three", "four", "five"];
    for (const name of names) expect((await create(account, { name })).status).toBe(201);
    await create(other, { name: "foreign" });

    const first = await list(account, "?limit=2");
    expect(first.status).toBe(200);
    parseStrict(campaignPageSchema, first.body);
    expect(first.body.data.map((c) => c.name)).toEqual(["five", "four"]);
    expect(first.body.nextCursor).toEqual(expect.any(String));
    const second = await list(account, `?limit=2&cursor=${first.body.nextCursor}`);
    expect(second.body.data.map((c) => c.name)).toEqual(["three", "two"]);
    const third = await list(account, `?limit=2&cursor=${second.body.nextCursor}`);
    expect(third.body.data.map((c) => c.name)).toEqual(["one"]);
    expect(third.body.nextCursor).toBeNull();
    expect((await list(account, "?limit=100")).body.data.map((c) => c.name)).not.toContain("foreign");
  });

  it("filters by status and leaves archived campaigns out unless asked", async () => {
    const account = await createApiAccount();
    const kept = await create(account, { name: "kept" });
    const archived = await create(account, { name: "old" });
    const params = Promise.resolve({ id: String(archived.body.id) });
    await ARCHIVE(new Request("http://localhost/x", { method: "POST", headers: { "x-api-key": account.key } }), { params });
    expect((await list(account)).body.data.map((c) => c.id)).toEqual([kept.body.id]);
    expect((await list(account, "?includeArchived=true")).body.data.map((c) => c.name)).toEqual(["old", "kept"]);
    expect((await list(account, "?status=archived")).body.data.map((c) => c.name)).toEqual(["old"]);
    expect((await list(account, "?status=draft")).body.data.map((c) => c.name)).toEqual(["kept"]);
  });

  it("422 for a bad cursor, limit or status", async () => {
    const tampered = Buffer.from(JSON.stringify(["2026-01-01T00:00:00Z", "cmp_\u0000"])).toString("base64url");
    for (const query of [`?cursor=${tampered}`, "?cursor=bm90LWEtY3Vyc29y", "?limit=0", "?limit=101", "?limit=ten", "?status=running", "?includeArchived=yes"]) {
      const response = await list(owner, query);
      expect(response.status, query).toBe(422);
      expect((response.body as unknown as { errors: unknown[] }).errors.length, query).toBeGreaterThan(0);
    }
  });

  it("405 with Allow for other methods", async () => {
    const response = await callRoute(DELETE, "DELETE", "/api/v1/campaigns", { key: owner.key });
    expect(response.status).toBe(405);
    expect(response.headers.get("allow")).toBe("GET, POST");
  });
});
