import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { templates } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { parseStrict } from "@/lib/http/request";
import { templateListSchema, templateSchema } from "@/lib/openapi/schemas";
import { createApiAccount, callRoute } from "@/lib/testing/api-factories";
import { GET, POST, PUT } from "./route";

type List = { data: { id: string; name: string; status: string; variables: { key: string }[] }[]; nextCursor: null };

describe("GET /api/v1/templates", () => {
  it("lists the sandbox sender's templates with their variables, approved first, as {data, nextCursor}", async () => {
    const account = await createApiAccount();
    const response = await callRoute<List>(GET, "GET", "/api/v1/templates", { key: account.key });
    expect(response.status).toBe(200);
    const list = parseStrict(templateListSchema, response.body);
    expect(list.nextCursor).toBeNull();
    expect(list.data.map((t) => t.name)).toContain("order_confirmation");
    expect(list.data.find((t) => t.name === "order_confirmation")!.variables.map((v) => v.key)).toEqual(["body.1", "body.2"]);
    const statuses = list.data.map((t) => t.status);
    expect(statuses.indexOf("APPROVED")).toBe(0);
  });

  it("never shows another workspace's templates", async () => {
    const mine = await createApiAccount();
    const theirs = await createApiAccount();
    const db = await getDb();
    await db.insert(templates).values({
      id: newId("tpl"),
      workspaceId: theirs.workspaceId,
      externalId: "sandbox:their_private_template",
      name: "their_private_template",
      language: "en_US",
      category: "MARKETING",
      status: "APPROVED",
      parameterFormat: "POSITIONAL",
      components: [{ type: "BODY", text: "Secret" }],
    });
    const their = await callRoute<List>(GET, "GET", "/api/v1/templates", { key: theirs.key });
    expect(their.body.data.map((t) => t.name)).toContain("their_private_template");
    const my = await callRoute<List>(GET, "GET", "/api/v1/templates", { key: mine.key });
    expect(my.body.data.map((t) => t.name)).not.toContain("their_private_template");
    const theirIds = new Set(their.body.data.map((t) => t.id));
    expect(my.body.data.some((t) => theirIds.has(t.id))).toBe(false);
  });

  it("401 without a key, 405 with Allow for other methods", async () => {
    expect((await callRoute(GET, "GET", "/api/v1/templates")).status).toBe(401);
    const wrong = await callRoute(PUT, "PUT", "/api/v1/templates");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET, POST");
  });
});

describe("POST /api/v1/templates", () => {
  const body = {
    name: "winter_sale",
    category: "MARKETING",
    language: "en_US",
    body: "Hi {{first_name}}, our winter sale starts today with 20% off.",
    examples: { first_name: "Maria" },
    buttons: [{ type: "URL", text: "Shop now", url: "https://shop.example.com/sale" }],
  };

  it("submits a template for review: 201, PENDING, then listed", async () => {
    const account = await createApiAccount();
    const response = await callRoute<{ id: string; status: string }>(POST, "POST", "/api/v1/templates", { key: account.key, body });
    expect(response.status).toBe(201);
    const created = parseStrict(templateSchema, response.body);
    expect(created).toMatchObject({ name: "winter_sale", status: "PENDING", category: "MARKETING", parameterFormat: "NAMED" });
    const list = await callRoute<List>(GET, "GET", "/api/v1/templates", { key: account.key });
    expect(list.body.data.find((t) => t.id === created.id)?.status).toBe("PENDING");
  });

  it("answers every broken rule at once as 422 problem+json, unknown members too", async () => {
    const account = await createApiAccount();
    const response = await callRoute<{ errors: { path: string }[] }>(POST, "POST", "/api/v1/templates", {
      key: account.key,
      body: { ...body, name: "Winter Sale", body: "{{first_name}} sale", examples: {} },
    });
    expect(response.status).toBe(422);
    expect(response.headers.get("content-type")).toMatch(/problem\+json/);
    expect(response.body.errors.map((e) => e.path).sort()).toEqual(["body", "examples.first_name", "name"]);
    const unknown = await callRoute(POST, "POST", "/api/v1/templates", { key: account.key, body: { ...body, colour: "red" } });
    expect(unknown.status).toBe(422);
  });
});
