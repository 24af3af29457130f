import { describe, expect, it } from "vitest";
import { attributeForPath, bodyLeaves, guessFieldsFromBody, guessType } from "./requests-fields";

describe("fields guessed from a recorded request", () => {
  it("guesses each type and finds the phone field", () => {
    const body = JSON.stringify({
      order_number: 10482,
      customer_phone: "+1 (415) 555-2671",
      email: "ada@example.com",
      shipped_on: "2026-11-24",
      paid_at: "2026-11-24T10:15:00Z",
      gift: false,
      first_name: "Ada",
      line_items: [{ sku: "A" }],
      note: null,
      "bad key": "x",
    });
    expect(guessFieldsFromBody(body)).toEqual({
      phoneField: "customer_phone",
      phoneFallbacks: [],
      countryField: null,
      body: JSON.parse(body),
      fields: [
        { field: "order_number", type: "number", sample: "10482" },
        { field: "email", type: "email", sample: "ada@example.com" },
        { field: "shipped_on", type: "date", sample: "2026-11-24" },
        { field: "paid_at", type: "date", sample: "2026-11-24T10:15:00Z" },
        { field: "gift", type: "boolean", sample: "false" },
        { field: "first_name", type: "string", sample: "Ada" },
        { field: "line_items[0].sku", type: "string", sample: "A" },
      ],
    });
  });

  it("prefers a phone-named field when two values are phone numbers, and reads the first item of a batch", () => {
    const body = JSON.stringify([{ from: "+447911123456", mobile: "+14155552671" }, { other: 1 }]);
    expect(guessFieldsFromBody(body)).toMatchObject({ phoneField: "mobile", phoneFallbacks: [], fields: [{ field: "from", type: "string", sample: "+447911123456" }] });
  });

  it("has no phone field when no value is a number with its country code", () => {
    expect(guessFieldsFromBody(JSON.stringify({ phone: "4155552671" }))?.phoneField).toBeNull();
  });

  it("is null for a body that is not an object", () => {
    expect(guessFieldsFromBody("{broken")).toBeNull();
    expect(guessFieldsFromBody("42")).toBeNull();
    expect(guessFieldsFromBody("[]")).toBeNull();
  });

  it("does not take text that merely contains a date or an @ for one", () => {
    expect(guessType("2026-13-45")).toBe("string");
    expect(guessType("see @ada")).toBe("string");
    expect(guessType("A-10482")).toBe("string");
  });
});

// A trimmed order in the shape Shopify's orders/create webhook sends.
const SHOPIFY_ORDER = {
  id: 820982911946154500,
  email: "jon@example.com",
  created_at: "2026-11-20T12:01:10-05:00",
  phone: null,
  order_number: 1234,
  total_price: "403.00",
  currency: "USD",
  customer: { id: 115310627314723950, email: "john@example.com", first_name: "John", phone: "+1 (415) 555-2671", default_address: { country_code: "US" } },
  shipping_address: { first_name: "Steve", phone: "555-625-1199", city: "Ottawa", country_code: "CA" },
  billing_address: { first_name: "Bob", phone: "(555) 555-5555", country_code: "US" },
  line_items: [
    { title: "Aviator sunglasses", quantity: 1, price: "199.00", properties: [] },
    { title: "Mid-century lounger", quantity: 1, price: "199.00" },
  ],
  note_attributes: [{ name: "gift_message", value: "Happy birthday" }],
  "odd key": { phone: "+447911123456" },
};

describe("fields guessed from a nested body", () => {
  const guessed = guessFieldsFromBody(JSON.stringify(SHOPIFY_ORDER))!;

  it("picks the customer's phone, with the other phone-named paths as fallbacks, and a country code path", () => {
    expect(guessed.phoneField).toBe("customer.phone");
    expect(guessed.countryField).toBe("customer.default_address.country_code");
    expect(guessed.phoneFallbacks).toEqual(["shipping_address.phone", "billing_address.phone"]);
  });

  it("offers every other leaf by its full path with a type from its value, in body order", () => {
    const byPath = new Map(guessed.fields.map((f) => [f.field, f]));
    expect(byPath.get("customer.first_name")).toEqual({ field: "customer.first_name", type: "string", sample: "John" });
    expect(byPath.get("line_items[1].title")).toEqual({ field: "line_items[1].title", type: "string", sample: "Mid-century lounger" });
    expect(byPath.get("note_attributes[0].value")?.sample).toBe("Happy birthday");
    expect(byPath.get("order_number")?.type).toBe("number");
    expect(byPath.get("created_at")?.type).toBe("date");
    expect(byPath.get("customer.email")?.type).toBe("email");
    // Null leaves, empty arrays and keys a path cannot spell are not offered.
    expect(byPath.has("phone")).toBe(false);
    expect(byPath.has("line_items[0].properties")).toBe(false);
    expect([...byPath.keys()].some((path) => path.startsWith("odd"))).toBe(false);
    expect(guessed.fields.map((f) => f.field).slice(0, 3)).toEqual(["id", "email", "created_at"]);
    expect(guessed.body).toEqual(SHOPIFY_ORDER);
  });

  it("ignores a national phone when the body names no country", () => {
    const noCountry = guessFieldsFromBody(JSON.stringify({ customer: { phone: "555-625-1199" } }))!;
    expect(noCountry.phoneField).toBeNull();
  });

  it("bounds the leaves: 5 items of an array, 10 levels", () => {
    expect(bodyLeaves({ items: Array.from({ length: 9 }, (_, i) => i) }).map((l) => l.path)).toEqual(["items[0]", "items[1]", "items[2]", "items[3]", "items[4]"]);
    let deep: unknown = "x";
    for (let i = 0; i < 12; i++) deep = { a: deep };
    expect(bodyLeaves(deep)).toEqual([]);
  });

  it("names the attribute for a path after its last key, else its keys joined", () => {
    expect(attributeForPath("customer.first_name", new Set())).toBe("first_name");
    expect(attributeForPath("shipping_address.first_name", new Set(["first_name"]))).toBe("shipping_address_first_name");
    expect(attributeForPath("line_items[0].title", new Set(["title"]))).toBe("line_items_title");
    expect(attributeForPath("line_items[1].title", new Set(["title", "line_items_title"]))).toBe("line_items_title_2");
    expect(attributeForPath("customer.tax-exempt", new Set())).toBe("tax_exempt");
    expect(attributeForPath("codes[0]", new Set())).toBe("codes");
  });
});
