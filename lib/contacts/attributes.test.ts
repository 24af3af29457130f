import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { createTestAccount } from "@/lib/testing/factories";
import { coerceAttributeValue, defineAttribute, defineAttributeSchema, listAttributes, parseAttributeText, typedAttributeErrors } from "./attributes";

describe("typed attribute values", () => {
  it("JSON values must have the declared type", () => {
    expect(coerceAttributeValue("string", "Lisbon")).toEqual({ ok: true, value: "Lisbon" });
    expect(coerceAttributeValue("string", 5).ok).toBe(false);
    expect(coerceAttributeValue("string", "a\u0000b").ok).toBe(false);
    expect(coerceAttributeValue("number", 1.5)).toEqual({ ok: true, value: 1.5 });
    expect(coerceAttributeValue("number", "1.5").ok).toBe(false);
    expect(coerceAttributeValue("boolean", false)).toEqual({ ok: true, value: false });
    expect(coerceAttributeValue("boolean", "false").ok).toBe(false);
    expect(coerceAttributeValue("date", "2024-02-29")).toEqual({ ok: true, value: "2024-02-29" });
    expect(coerceAttributeValue("date", "2023-02-29").ok).toBe(false);
    expect(coerceAttributeValue("date", "2024-02-29T10:00:00Z").ok).toBe(false);
  });

  it("text cells are read as the declared type; spreadsheet damage is not a number", () => {
    expect(parseAttributeText("number", " 42 ")).toEqual({ ok: true, value: 42 });
    expect(parseAttributeText("number", "-0.5")).toEqual({ ok: true, value: -0.5 });
    expect(parseAttributeText("number", "4.41E+11").ok).toBe(false);
    expect(parseAttributeText("number", "1,5").ok).toBe(false);
    expect(parseAttributeText("number", "").ok).toBe(false);
    expect(parseAttributeText("boolean", "Yes")).toEqual({ ok: true, value: true });
    expect(parseAttributeText("boolean", "0")).toEqual({ ok: true, value: false });
    expect(parseAttributeText("boolean", "maybe").ok).toBe(false);
    expect(parseAttributeText("date", "2026-11-21")).toEqual({ ok: true, value: "2026-11-21" });
    expect(parseAttributeText("date", "21/11/2026").ok).toBe(false);
    expect(parseAttributeText("string", "  Maria ")).toEqual({ ok: true, value: "Maria" });
  });
});

describe("attribute definitions", () => {
  it("defines once per workspace; the same type again changes nothing, another type is 409", async () => {
    const db = await getDb();
    const { workspaceId } = await createTestAccount();
    const other = await createTestAccount();
    expect(await defineAttribute(db, workspaceId, { key: "points", type: "number" })).toMatchObject({ created: true, attribute: { key: "points", type: "number" } });
    expect(await defineAttribute(db, workspaceId, { key: "points", type: "number" })).toMatchObject({ created: false });
    await expect(defineAttribute(db, workspaceId, { key: "points", type: "string" })).rejects.toMatchObject({ code: "attribute_type_conflict", status: 409 });
    expect((await defineAttribute(db, other.workspaceId, { key: "points", type: "string" })).created).toBe(true);
    await defineAttribute(db, workspaceId, { key: "birthday", type: "date" });
    expect((await listAttributes(db, workspaceId)).data.map((a) => `${a.key}:${a.type}`)).toEqual(["birthday:date", "points:number"]);

    const errors = await typedAttributeErrors(db, workspaceId, { points: "12", birthday: "2026-13-01", free: { any: "thing" }, removed: null });
    expect(errors.map((e) => [e.path, e.code])).toEqual([
      ["attributes.points", "invalid_type"],
      ["attributes.birthday", "invalid_type"],
    ]);
    expect(await typedAttributeErrors(db, other.workspaceId, { points: "12" })).toEqual([]);
  });

  it("keys follow the identifier rule and cannot be built in", () => {
    expect(defineAttributeSchema.safeParse({ key: "first name", type: "string" }).success).toBe(false);
    expect(defineAttributeSchema.safeParse({ key: "name", type: "string" }).success).toBe(false);
    expect(defineAttributeSchema.safeParse({ key: "phoneNumber", type: "string" }).success).toBe(false);
    expect(defineAttributeSchema.safeParse({ key: "tier", type: "enum" }).success).toBe(false);
    expect(defineAttributeSchema.safeParse({ key: "tier", type: "string" }).success).toBe(true);
  });
});
