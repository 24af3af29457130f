import { describe, expect, it } from "vitest";
import { fieldPathSchema, formatFieldPath, parseFieldPath, readFieldPath, writeFieldPath } from "./field-path";

const order = {
  phone: null,
  customer: { phone: "+14155552671", first_name: "Ada", "tax-exempt": false },
  line_items: [{ title: "Mug", quantity: 2 }, { title: "Tea" }],
  note_attributes: [
    { name: "gift_message", value: "Happy birthday" },
    { name: "wrap", value: "yes" },
  ],
  codes: [[1, 2], [3]],
};

describe("field paths", () => {
  it.each([
    ["phone", [{ kind: "key", key: "phone" }]],
    ["customer.phone", [{ kind: "key", key: "customer" }, { kind: "key", key: "phone" }]],
    ["line_items[0].title", [{ kind: "key", key: "line_items" }, { kind: "index", index: 0 }, { kind: "key", key: "title" }]],
    ["note_attributes[name=gift_message].value", [{ kind: "key", key: "note_attributes" }, { kind: "match", key: "name", value: "gift_message" }, { kind: "key", key: "value" }]],
    ["codes[0][1]", [{ kind: "key", key: "codes" }, { kind: "index", index: 0 }, { kind: "index", index: 1 }]],
    ["customer.tax-exempt", [{ kind: "key", key: "customer" }, { kind: "key", key: "tax-exempt" }]],
  ])("parses %s and formats it back the same", (text, steps) => {
    const parsed = parseFieldPath(text);
    expect(parsed).toEqual({ ok: true, steps });
    if (parsed.ok) expect(formatFieldPath(parsed.steps)).toBe(text);
  });

  it.each([
    ["", "it is empty"],
    [".phone", "it must start with a key"],
    ["[0].phone", "it must start with a key"],
    ["customer..phone", 'unexpected text at "..phone"'],
    ["customer.", 'unexpected text at "."'],
    ["customer phone", 'unexpected text at " phone"'],
    ["items[01]", 'unexpected text at "[01]"'],
    ["items[10000]", 'unexpected text at "[10000]"'],
    ["items[-1]", 'unexpected text at "[-1]"'],
    ["items[name=]", 'unexpected text at "[name=]"'],
    ["items[name=a b]", 'unexpected text at "[name=a b]"'],
    ["customer.__proto__", '"__proto__" is a reserved name'],
    ["constructor", '"constructor" is a reserved name'],
    ["a.b.c.d.e.f.g.h.i.j.k", "it is deeper than 10 levels"],
    ["x".repeat(201), "it is longer than 200 characters"],
  ])("refuses %j: %s", (text, reason) => {
    expect(parseFieldPath(text)).toEqual({ ok: false, reason });
  });

  it("allows exactly 10 levels and 200 characters", () => {
    expect(parseFieldPath("a.b.c.d.e.f.g.h.i.j").ok).toBe(true);
    expect(parseFieldPath("x".repeat(200)).ok).toBe(true);
  });

  it("reads values by key, index and match, and undefined for anything missing", () => {
    expect(readFieldPath(order, "customer.phone")).toBe("+14155552671");
    expect(readFieldPath(order, "phone")).toBeNull();
    expect(readFieldPath(order, "line_items[1].title")).toBe("Tea");
    expect(readFieldPath(order, "line_items[2].title")).toBeUndefined();
    expect(readFieldPath(order, "note_attributes[name=gift_message].value")).toBe("Happy birthday");
    expect(readFieldPath(order, "note_attributes[name=card].value")).toBeUndefined();
    expect(readFieldPath(order, "codes[0][1]")).toBe(2);
    expect(readFieldPath(order, "customer.tax-exempt")).toBe(false);
    expect(readFieldPath(order, "customer[0]")).toBeUndefined();
    expect(readFieldPath(order, "line_items.title")).toBeUndefined();
    expect(readFieldPath(order, "customer.phone.length")).toBeUndefined();
    expect(readFieldPath(order, "customer.toString")).toBeUndefined();
    expect(readFieldPath(order, "not a path")).toBeUndefined();
    expect(readFieldPath(null, "phone")).toBeUndefined();
  });

  it("matches numbers by their text", () => {
    expect(readFieldPath({ items: [{ id: 7, sku: "A" }, { id: 8, sku: "B" }] }, "items[id=8].sku")).toBe("B");
  });

  it("writes values, creating the objects and arrays on the way", () => {
    const body: Record<string, unknown> = { customer: { id: 1 } };
    writeFieldPath(body, "customer.phone", "+1");
    writeFieldPath(body, "line_items[1].title", "Tea");
    writeFieldPath(body, "note_attributes[name=gift_message].value", "Hi");
    expect(body).toEqual({
      customer: { id: 1, phone: "+1" },
      line_items: [null, { title: "Tea" }],
      note_attributes: [{ name: "gift_message", value: "Hi" }],
    });
    expect(readFieldPath(body, "note_attributes[name=gift_message].value")).toBe("Hi");
  });

  it("has a schema whose message says what a path is", () => {
    expect(fieldPathSchema.safeParse("line_items[0].title").success).toBe(true);
    const result = fieldPathSchema.safeParse("customer phone");
    expect(result.success).toBe(false);
    expect(result.error?.issues[0]?.message).toBe(
      'Not a field path (unexpected text at " phone"). Use keys of letters, digits, _ and - joined by dots, [0] for an array item, [key=value] for the item whose key has that value, such as customer.phone, line_items[0].title or note_attributes[name=gift_message].value.',
    );
  });
});
