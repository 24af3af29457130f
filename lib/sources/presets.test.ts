import { describe, expect, it } from "vitest";
import { triggerConfigSchema } from "@/lib/campaigns/schemas";
import { SOURCE_KINDS } from "./kinds";
import { findPreset, KIND_STEPS, SOURCE_PRESETS } from "./presets";

// A reader for the path syntax of the trigger configuration (dots, `[n]`, `[key=value]`), kept
// here so this test checks the presets against their sample bodies on its own.
function read(body: unknown, path: string): unknown {
  let value: unknown = body;
  for (const part of path.match(/[^.[\]]+|\[[^\]]*\]/g) ?? []) {
    if (value === null || typeof value !== "object") return undefined;
    if (part.startsWith("[")) {
      const inner = part.slice(1, -1);
      const eq = inner.indexOf("=");
      if (!Array.isArray(value)) return undefined;
      if (eq === -1) value = value[Number(inner)];
      else value = value.find((item) => item && typeof item === "object" && String((item as Record<string, unknown>)[inner.slice(0, eq)]) === inner.slice(eq + 1));
    } else {
      value = (value as Record<string, unknown>)[part];
    }
  }
  return value;
}

const present = (value: unknown) => value !== undefined && value !== null && value !== "";
const firstPresent = (body: unknown, paths: string[]) => paths.map((path) => read(body, path)).find(present);

describe("source presets", () => {
  it("has the five presets with distinct ids", () => {
    expect(SOURCE_PRESETS.map((preset) => preset.label)).toEqual([
      "Shopify: order created",
      "Shopify: abandoned checkout",
      "Shopify: order fulfilled",
      "WooCommerce: order created",
      "Stripe: checkout completed",
    ]);
    expect(new Set(SOURCE_PRESETS.map((preset) => preset.id)).size).toBe(SOURCE_PRESETS.length);
    expect(findPreset("shopify-orders-create")?.topics).toEqual(["orders/create"]);
  });

  it.each(SOURCE_PRESETS.map((preset) => [preset.label, preset] as const))("%s reads a phone, a country and every field from its sample body", (_, preset) => {
    const { trigger, sample } = preset;
    const phone = firstPresent(sample, [trigger.phoneField, ...trigger.phoneFallbacks]);
    expect(typeof phone).toBe("string");
    expect(String(phone)).toMatch(/\d{3}/);
    expect(trigger.countryField).not.toBeNull();
    expect(read(sample, trigger.countryField!)).toMatch(/^[A-Z]{2}$/);
    expect(trigger.fields.length).toBeGreaterThan(0);
    for (const row of trigger.fields) {
      const value = firstPresent(sample, [row.field, ...row.fallbacks]);
      expect(value, `${preset.id}: ${row.field}`).toBeDefined();
      expect(typeof value, `${preset.id}: ${row.field}`).toMatch(row.type === "number" ? /^number$/ : /^(string|number)$/);
    }
  });

  it("reads the values a shop owner expects from the samples", () => {
    const values = (id: string) => {
      const preset = findPreset(id)!;
      return Object.fromEntries(preset.trigger.fields.map((row) => [row.attribute, firstPresent(preset.sample, [row.field, ...row.fallbacks])]));
    };
    const created = findPreset("shopify-orders-create")!;
    // The order's customer has no phone: the shipping address's number is the one used.
    expect(firstPresent(created.sample, [created.trigger.phoneField, ...created.trigger.phoneFallbacks])).toBe("212-555-0147");
    expect(values("shopify-orders-create")).toEqual({ first_name: "Jon", order_number: "#1001", order_total: "403.00", currency: "USD" });
    expect(values("shopify-checkouts-create").checkout_url).toMatch(/^https:\/\/.+recover/);
    expect(values("shopify-orders-fulfilled").tracking_url).toMatch(/^https:\/\/tools\.usps\.com/);
    expect(values("woocommerce-order-created")).toEqual({ first_name: "John", order_number: "727", order_total: "29.35", currency: "USD" });
    expect(values("stripe-checkout-session-completed")).toEqual({ name: "Jenny Rosen", amount_total: 4900, currency: "usd" });
  });

  it("uses attribute names the trigger configuration accepts, none twice and never the phone's", () => {
    for (const preset of SOURCE_PRESETS) {
      // Today's schema takes plain identifiers as fields; the attributes must pass it whatever the paths.
      const result = triggerConfigSchema.safeParse({
        phoneField: "phone",
        fields: preset.trigger.fields.map((row, index) => ({ field: `f${index}`, attribute: row.attribute, type: row.type, required: row.required })),
      });
      expect(result.success, preset.id).toBe(true);
      expect(preset.trigger.phoneFallbacks.length).toBeLessThanOrEqual(5);
      for (const row of preset.trigger.fields) expect(row.fallbacks.length).toBeLessThanOrEqual(5);
    }
  });

  it("names a topic the shop sends and shows steps for every kind", () => {
    for (const preset of SOURCE_PRESETS) {
      if (preset.kind === "stripe") expect(read(preset.sample, "type")).toBe(preset.topics[0]);
      else expect(preset.topicHeaderValue).toBe(preset.topics[0]);
      expect(preset.steps.some((step) => /URL/.test(step))).toBe(true);
    }
    for (const kind of SOURCE_KINDS) expect(KIND_STEPS[kind].length).toBeGreaterThan(0);
  });
});
