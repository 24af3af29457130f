import { describe, expect, it } from "vitest";
import { humanizeKey } from "./format";

describe("humanizeKey", () => {
  it("turns snake_case and camelCase keys into sentence-case labels", () => {
    expect(humanizeKey("first_name")).toBe("First name");
    expect(humanizeKey("orderId")).toBe("Order id");
    expect(humanizeKey("loyalty__points_2")).toBe("Loyalty points 2");
    expect(humanizeKey("vip")).toBe("Vip");
    expect(humanizeKey("_")).toBe("_");
  });
});
