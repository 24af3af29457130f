import { describe, expect, it } from "vitest";
import { guessFieldsFromBody, guessType } from "./requests-fields";

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
      fields: [
        { field: "order_number", type: "number", sample: "10482" },
        { field: "email", type: "email", sample: "ada@example.com" },
        { field: "shipped_on", type: "date", sample: "2026-11-24" },
        { field: "paid_at", type: "date", sample: "2026-11-24T10:15:00Z" },
        { field: "gift", type: "boolean", sample: "false" },
        { field: "first_name", type: "string", sample: "Ada" },
      ],
    });
  });

  it("prefers a phone-named field when two values are phone numbers, and reads the first item of a batch", () => {
    const body = JSON.stringify([{ from: "+447911123456", mobile: "+14155552671" }, { other: 1 }]);
    expect(guessFieldsFromBody(body)).toEqual({ phoneField: "mobile", fields: [{ field: "from", type: "string", sample: "+447911123456" }] });
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
