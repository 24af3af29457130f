import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { templates } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { parseStrict } from "@/lib/http/request";
import { templateListSchema } from "@/lib/openapi/schemas";
import { createApiAccount, callRoute } from "@/lib/testing/api-factories";
import { GET, POST } from "./route";

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
    const wrong = await callRoute(POST, "POST", "/api/v1/templates");
    expect(wrong.status).toBe(405);
    expect(wrong.headers.get("allow")).toBe("GET");
  });
});
