import { describe, expect, it } from "vitest";
import type { FieldType, TriggerConfig } from "@/lib/campaigns/schemas";
import { normalizePhoneNumber, numberAsText, phoneCandidates, validateTriggerItems } from "./validation";

const row = (field: string, attribute: string, type: FieldType, required: boolean) => ({ field, fallbacks: [], attribute, type, required });

const config: TriggerConfig = {
  phoneField: "phone",
  phoneFallbacks: [],
  countryField: null,
  example: null,
  fields: [
    row("phone", "phoneNumber", "string", true),
    row("order_number", "orderNumber", "string", true),
    row("note", "note", "string", false),
    row("total", "total", "number", false),
  ],
};

function validate(item: Record<string, unknown>) {
  return validateTriggerItems(config, [item], false);
}

describe("a number sent for a string field", () => {
  it("becomes its decimal text, required or optional", () => {
    const result = validate({ phone: "+14155552671", order_number: 10482, note: 19.99 });
    expect(result).toEqual({ ok: true, items: [{ phone: "+14155552671", attributes: { orderNumber: "10482", note: "19.99" } }] });
  });

  it("keeps negative numbers and zero exact", () => {
    expect(numberAsText(-42)).toBe("-42");
    expect(numberAsText(0)).toBe("0");
    expect(numberAsText(0.5)).toBe("0.5");
    expect(numberAsText(Number.MAX_SAFE_INTEGER)).toBe("9007199254740991");
  });

  it("is refused when its text would not be exact: exponents and integers past 2^53", () => {
    expect(numberAsText(1e21)).toBeNull();
    expect(numberAsText(1e-7)).toBeNull();
    expect(numberAsText(2 ** 53 + 2)).toBeNull();
    const result = validate({ phone: "+14155552671", order_number: 1e21 });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toHaveLength(1);
    expect(result.errors[0]).toMatchObject({ path: "order_number", code: "invalid_type" });
    expect(result.errors[0]!.message).toMatch(/send it as a string/);
  });

  it("does not turn other types into text", () => {
    const result = validate({ phone: "+14155552671", order_number: true });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]).toMatchObject({ path: "order_number", message: "Expected a string." });
  });

  it("leaves number fields numbers", () => {
    const result = validate({ phone: "+14155552671", order_number: "A-1", total: 12.5 });
    expect(result).toEqual({ ok: true, items: [{ phone: "+14155552671", attributes: { orderNumber: "A-1", total: 12.5 } }] });
  });
});

describe("the phone field", () => {
  it.each([
    ["+1 (415) 555-2671", "+14155552671"],
    ["+1.415.555.2671", "+14155552671"],
    ["+44 20 7946 0958", "+442079460958"],
    [" +14155552671 ", "+14155552671"],
    ["+14155552671", "+14155552671"],
  ])("normalises %j written with a + to %s", (input, expected) => {
    expect(normalizePhoneNumber(input)).toBe(expected);
    const result = validate({ phone: input, order_number: "1" });
    expect(result).toEqual({ ok: true, items: [{ phone: expected, attributes: { orderNumber: "1" } }] });
  });

  it.each(["4155552671", "(415) 555-2671", "0044 20 7946 0958"])("refuses %j without a +: the country would be a guess", (input) => {
    const result = validate({ phone: input, order_number: "1" });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([{ path: "phone", code: "invalid_phone", message: expect.stringMatching(/country would be a guess/) }]);
  });

  it("refuses a phone sent as a JSON number, saying why", () => {
    const result = validate({ phone: 14155552671, order_number: "1" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]).toMatchObject({ path: "phone", code: "invalid_phone", message: expect.stringMatching(/country would be a guess/) });
  });

  it("still refuses letters and numbers that do not exist", () => {
    for (const phone of ["+1 415 CALL NOW", "+1 (000) 000-0000"]) {
      const result = validate({ phone, order_number: "1" });
      expect(result.ok).toBe(false);
      if (!result.ok) expect(result.errors[0]).toMatchObject({ path: "phone", code: "invalid_phone" });
    }
  });

  it("requires the phone", () => {
    const result = validate({ order_number: "1" });
    expect(result.ok).toBe(false);
    if (!result.ok) expect(result.errors[0]).toMatchObject({ path: "phone", code: "required" });
  });

  it("offers the normalised number as a stored-contact candidate", () => {
    expect(phoneCandidates([{ phone: "+1 (415) 555-2671", other: "hello", n: 5 }])).toEqual(["+14155552671"]);
  });
});
