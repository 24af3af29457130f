import { describe, expect, it } from "vitest";
import { followedAttribute } from "./field-autofill";

const base = { editedByHand: false, attributeFocused: false };

describe("the attribute following the field name", () => {
  it("follows each keystroke of the field name while it was derived", () => {
    let attribute = "";
    let field = "";
    for (const char of "orderNumber") {
      const next = field + char;
      attribute = followedAttribute({ ...base, previousField: field, nextField: next, attribute }) ?? attribute;
      field = next;
    }
    expect(attribute).toBe("orderNumber");
  });

  it("stops once the attribute was edited by hand, even back to empty", () => {
    expect(followedAttribute({ ...base, editedByHand: true, previousField: "order", nextField: "order_n", attribute: "" })).toBeNull();
    expect(followedAttribute({ ...base, previousField: "order", nextField: "order_n", attribute: "orderNumber" })).toBeNull();
  });

  it("never writes into the attribute box while it has the focus", () => {
    expect(followedAttribute({ ...base, attributeFocused: true, previousField: "order", nextField: "order_n", attribute: "order" })).toBeNull();
  });

  it("trims the field name and reports no change when there is none", () => {
    expect(followedAttribute({ ...base, previousField: "name", nextField: " name ", attribute: "name" })).toBeNull();
    expect(followedAttribute({ ...base, previousField: "", nextField: "  email", attribute: "" })).toBe("email");
  });

  it("follows the last key of a path", () => {
    let attribute = "";
    let field = "";
    for (const char of "customer.first-name") {
      const next = field + char;
      attribute = followedAttribute({ ...base, previousField: field, nextField: next, attribute }) ?? attribute;
      field = next;
    }
    expect(attribute).toBe("first_name");
    expect(followedAttribute({ ...base, previousField: "line_items[0", nextField: "line_items[0]", attribute: "line_items" })).toBeNull();
    expect(followedAttribute({ ...base, previousField: "line_items[0]", nextField: "line_items[0].title", attribute: "line_items" })).toBe("title");
  });
});
