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

describe("nested paths and fallbacks", () => {
  const shop: TriggerConfig = {
    phoneField: "customer.phone",
    phoneFallbacks: ["shipping_address.phone", "billing_address.phone"],
    countryField: "shipping_address.country_code",
    example: null,
    fields: [
      { ...row("customer.first_name", "name", "string", false), fallbacks: ["shipping_address.first_name"] },
      row("order_number", "orderNumber", "string", true),
      row("line_items[0].title", "product", "string", false),
      row("note_attributes[name=gift_message].value", "gift", "string", false),
      { ...row("total_price", "total", "number", true), fallbacks: ["current_total_price"] },
    ],
  };
  const order = (overrides: Record<string, unknown> = {}) => ({
    order_number: 1001,
    customer: { phone: "+1 (415) 555-2671", first_name: "Ada" },
    shipping_address: { phone: null, first_name: "Ann", country_code: "US" },
    line_items: [{ title: "Mug" }],
    note_attributes: [{ name: "gift_message", value: "Enjoy" }],
    total_price: 19.5,
    ...overrides,
  });

  it("reads every field by its path", () => {
    expect(validateTriggerItems(shop, [order()], false)).toEqual({
      ok: true,
      items: [{ phone: "+14155552671", attributes: { name: "Ada", orderNumber: "1001", product: "Mug", gift: "Enjoy", total: 19.5 } }],
    });
  });

  it("takes the first fallback with a value: missing, null and empty strings are skipped", () => {
    const result = validateTriggerItems(
      shop,
      [order({ customer: { phone: "", first_name: null }, shipping_address: { first_name: "Ann" }, billing_address: { phone: "+447911123456" }, total_price: undefined, current_total_price: 7 })],
      false,
    );
    expect(result).toEqual({ ok: true, items: [{ phone: "+447911123456", attributes: { name: "Ann", orderNumber: "1001", product: "Mug", gift: "Enjoy", total: 7 } }] });
  });

  it("names the path that was read, with the item's index in a batch", () => {
    const result = validateTriggerItems(shop, [order(), order({ shipping_address: { phone: "+1 CALL" }, customer: {}, total_price: "12" })], true);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      { path: "[1].shipping_address.phone", code: "invalid_phone", message: expect.any(String) },
      { path: "[1].total_price", code: "invalid_type", message: "Expected a number." },
    ]);
  });

  it("names the primary path and the fallbacks when none has a value", () => {
    const result = validateTriggerItems(shop, [order({ customer: null, total_price: null, line_items: [] })], false);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.errors).toEqual([
      {
        path: "customer.phone",
        code: "required",
        message: "Required: the phone number in E.164 format, such as +14155552671. Also looked for shipping_address.phone, billing_address.phone; none had a value.",
      },
      { path: "total_price", code: "required", message: "Required (number). Also looked for current_total_price; none had a value." },
    ]);
  });

  it("reads a national number in the country the body names", () => {
    const gb = order({ customer: { phone: "07911 123456" }, shipping_address: { country_code: "gb" } });
    expect(validateTriggerItems(shop, [gb], false)).toMatchObject({ ok: true, items: [{ phone: "+447911123456" }] });
    const asNumber = order({ customer: { phone: 4155552671 } });
    expect(validateTriggerItems(shop, [asNumber], false)).toMatchObject({ ok: true, items: [{ phone: "+14155552671" }] });
  });

  it("refuses a national number without a usable country, or one that is not valid there", () => {
    for (const country of [undefined, "USA", "ZZ", 1]) {
      const result = validateTriggerItems(shop, [order({ customer: { phone: "4155552671" }, shipping_address: { country_code: country } })], false);
      expect(result.ok).toBe(false);
      if (!result.ok) {
        expect(result.errors[0]).toMatchObject({ path: "customer.phone", code: "invalid_phone" });
        expect(result.errors[0]!.message).toMatch(/country would be a guess.*shipping_address\.country_code holds no 2-letter ISO country code/);
      }
    }
    const wrong = validateTriggerItems(shop, [order({ customer: { phone: "12" } })], false);
    expect(wrong).toMatchObject({ ok: false, errors: [{ path: "customer.phone", code: "invalid_phone", message: expect.stringMatching(/^Not a valid phone number in US: too short/) }] });
  });

  it("keeps the refusal for national numbers when no country field is set", () => {
    const result = validateTriggerItems({ ...shop, countryField: null }, [order({ customer: { phone: "4155552671" } })], false);
    expect(result).toMatchObject({ ok: false, errors: [{ path: "customer.phone", message: expect.stringMatching(/country would be a guess/) }] });
  });
});

describe("stored-contact candidates", () => {
  it("finds phone numbers at any depth, and national ones read in a country code of the same item", () => {
    const items = [
      { customer: { phone: "+1 (415) 555-2671" }, shipping_address: { phone: "07911 123456", country_code: "GB" }, id: 4500 },
      { billing_address: { phone: "(415) 555-0134" } },
      { nested: [{ contact: { mobile: 4155550199 } }], country: "US" },
    ];
    expect(phoneCandidates(items).sort()).toEqual(["+14155550199", "+14155552671", "+447911123456"]);
  });

  it("bounds the work for huge or deep bodies", () => {
    let deep: Record<string, unknown> = { phone: "+14155552671" };
    for (let i = 0; i < 20; i++) deep = { next: deep };
    expect(phoneCandidates([deep])).toEqual([]);
    const wide = Object.fromEntries(Array.from({ length: 5000 }, (_, i) => [`k${i}`, i === 4999 ? "+14155552671" : "x"]));
    expect(phoneCandidates([wide])).toEqual([]);
    const many = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`p${i}`, `+1415555${String(2600 + i)}`]));
    expect(phoneCandidates([many]).length).toBeLessThanOrEqual(16);
  });
});
