import { describe, expect, it } from "vitest";
import { fromCondition, newDraft, opsFor, toCondition } from "./segment-conditions";

const definitions = [
  { key: "city", type: "string" as const },
  { key: "visits", type: "number" as const },
  { key: "vip", type: "boolean" as const },
  { key: "birthday", type: "date" as const },
];

describe("segment builder conditions", () => {
  it("offers operators that fit the attribute's type", () => {
    const draft = newDraft("attribute", definitions);
    expect(opsFor({ ...draft, key: "city" }, definitions)).toContain("contains");
    expect(opsFor({ ...draft, key: "visits" }, definitions)).toContain("gte");
    expect(opsFor({ ...draft, key: "visits" }, definitions)).not.toContain("contains");
    expect(opsFor({ ...draft, key: "birthday" }, definitions)).toContain("before");
  });

  it("sends typed values and leaves the value out for is_set", () => {
    const draft = newDraft("attribute", definitions);
    expect(toCondition({ ...draft, key: "visits", op: "gt", value: " 3 " }, definitions)).toEqual({ ok: true, condition: { field: "attribute", key: "visits", op: "gt", value: 3 } });
    expect(toCondition({ ...draft, key: "vip", op: "equals", value: "false" }, definitions)).toEqual({ ok: true, condition: { field: "attribute", key: "vip", op: "equals", value: false } });
    expect(toCondition({ ...draft, key: "city", op: "is_set", value: "x" }, definitions)).toEqual({ ok: true, condition: { field: "attribute", key: "city", op: "is_set" } });
    expect(toCondition({ ...draft, key: "visits", op: "gt", value: "many" }, definitions)).toEqual({ ok: false, message: "Enter a number." });
    expect(toCondition({ ...draft, key: "city", op: "equals", value: "" }, definitions).ok).toBe(false);
  });

  it("sends matchCase only when asked, and only for text comparisons", () => {
    const draft = newDraft("attribute", definitions);
    expect(toCondition({ ...draft, key: "city", op: "equals", value: "Madrid" }, definitions)).toEqual({ ok: true, condition: { field: "attribute", key: "city", op: "equals", value: "Madrid" } });
    expect(toCondition({ ...draft, key: "city", op: "contains", value: "Mad", matchCase: true }, definitions)).toEqual({ ok: true, condition: { field: "attribute", key: "city", op: "contains", value: "Mad", matchCase: true } });
    expect(toCondition({ ...draft, key: "visits", op: "equals", value: "3", matchCase: true }, definitions)).toEqual({ ok: true, condition: { field: "attribute", key: "visits", op: "equals", value: 3 } });
    expect(toCondition({ ...draft, key: "city", op: "is_set", value: "", matchCase: true }, definitions)).toEqual({ ok: true, condition: { field: "attribute", key: "city", op: "is_set" } });
  });

  it("needs a list and a date where they apply", () => {
    expect(toCondition(newDraft("list", definitions), definitions).ok).toBe(false);
    expect(toCondition({ ...newDraft("list", definitions), listId: "lst_1" }, definitions)).toEqual({ ok: true, condition: { field: "list", op: "in", listId: "lst_1" } });
    expect(toCondition({ ...newDraft("created_at", definitions), value: "2026-02-30x" }, definitions).ok).toBe(false);
    expect(toCondition(newDraft("opted_out", definitions), definitions)).toEqual({ ok: true, condition: { field: "opted_out", value: false } });
  });

  it("a consent row defaults to subscribed, sends a known status and round-trips", () => {
    const draft = newDraft("consent", definitions);
    expect(toCondition(draft, definitions)).toEqual({ ok: true, condition: { field: "consent", op: "equals", value: "subscribed" } });
    expect(toCondition({ ...draft, op: "not_equals", value: "unknown" }, definitions)).toEqual({ ok: true, condition: { field: "consent", op: "not_equals", value: "unknown" } });
    expect(toCondition({ ...draft, value: "yes" }, definitions).ok).toBe(false);
    const saved = { field: "consent", op: "equals", value: "unsubscribed" } as const;
    expect(toCondition(fromCondition(saved), definitions)).toEqual({ ok: true, condition: saved });
  });

  it("round-trips saved conditions", () => {
    const saved = [
      { field: "attribute" as const, key: "visits", op: "lte" as const, value: 2 },
      { field: "attribute" as const, key: "city", op: "starts_with" as const, value: "Mad", matchCase: true },
      { field: "attribute" as const, key: "city", op: "equals" as const, value: " madrid " },
      { field: "list" as const, op: "not_in" as const, listId: "lst_9" },
      { field: "opted_out" as const, value: true },
      { field: "created_at" as const, op: "after" as const, value: "2026-01-05" },
      { field: "last_message_status" as const, op: "equals" as const, value: "failed" },
    ];
    expect(saved.map((condition) => toCondition(fromCondition(condition), definitions))).toEqual(saved.map((condition) => ({ ok: true, condition })));
  });
});
