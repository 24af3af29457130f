import { describe, expect, it } from "vitest";
import { campaignStatuses } from "@/db/schema";
import { formatPath } from "@/lib/http/problem";
import { CAMPAIGN_STATUSES, campaignEditorSchema, newTriggerField, parseStoredTriggerConfig, triggerConfigSchema } from "./schemas";
import { curlExample, payloadAttributes, samplePayload } from "./sample";

function issues(value: unknown) {
  const result = triggerConfigSchema.safeParse(value);
  return result.success ? [] : result.error.issues.map((i) => `${formatPath(i.path)}: ${i.message}`);
}

it("lists the same campaign statuses as the database schema", () => {
  expect([...CAMPAIGN_STATUSES]).toEqual([...campaignStatuses]);
});

describe("trigger configuration", () => {
  const row = (field: string, attribute: string, type = "string", required = true) => ({ field, attribute, type, required });

  it("accepts the phone field and custom fields of every type", () => {
    expect(
      issues({
        phoneField: "phone",
        fields: [row("name", "name"), row("order_number", "orderNumber"), row("total", "total", "number"), row("vip", "vip", "boolean", false), row("email", "email", "email"), row("due", "due", "date")],
      }),
    ).toEqual([]);
  });

  it("rejects attributes that are not JSON-safe identifiers and request fields that are not paths", () => {
    expect(issues({ phoneField: "my phone", fields: [row("1st", "ok"), row("ok", "a-b"), row("x".repeat(201), "y"), row("a..b", "z")] })).toHaveLength(4);
    expect(issues({ phoneField: "phone", fields: [row("ok", "1st")] })[0]).toMatch(/letters, digits and underscores only/);
    expect(issues({ phoneField: "customer phone", fields: [] })[0]).toMatch(/^phoneField: Not a field path .*customer\.phone/);
  });

  it("accepts nested paths with fallbacks, a country field and an example body; old configs get the defaults", () => {
    const config = triggerConfigSchema.parse({
      phoneField: "customer.phone",
      phoneFallbacks: ["shipping_address.phone", "billing_address.phone"],
      countryField: "shipping_address.country_code",
      fields: [{ ...row("line_items[0].title", "title"), fallbacks: ["note_attributes[name=gift_message].value"] }],
      example: { customer: { phone: "+14155552671" } },
    });
    expect(config.fields[0]!.fallbacks).toEqual(["note_attributes[name=gift_message].value"]);
    expect(triggerConfigSchema.parse({ phoneField: "phone", fields: [row("a", "a")] })).toEqual({
      phoneField: "phone",
      phoneFallbacks: [],
      countryField: null,
      fields: [{ ...row("a", "a"), fallbacks: [] }],
      example: null,
    });
  });

  it("limits fallbacks and the example, and refuses a fallback that repeats an earlier path", () => {
    const six = ["a", "b", "c", "d", "e", "f"];
    expect(issues({ phoneField: "phone", phoneFallbacks: six, fields: [] })).toEqual(["phoneFallbacks: At most 5 fallbacks."]);
    expect(issues({ phoneField: "phone", fields: [{ ...row("x", "x"), fallbacks: six }] })).toEqual(["fields[0].fallbacks: At most 5 fallbacks."]);
    expect(issues({ phoneField: "customer.phone", phoneFallbacks: ["a.phone", "customer.phone", "a.phone"], fields: [{ ...row("b", "b"), fallbacks: ["b"] }] })).toEqual([
      'phoneFallbacks[1]: "customer.phone" is already read before this fallback.',
      'phoneFallbacks[2]: "a.phone" is already read before this fallback.',
      'fields[0].fallbacks[0]: "b" is already read before this fallback.',
    ]);
    expect(issues({ phoneField: "phone", fields: [], example: { note: "x".repeat(9000) } })).toEqual(["example: The example body is larger than 8 KiB; trim it."]);
    expect(issues({ phoneField: "phone", fields: [], example: "text" })).toHaveLength(1);
    expect(issues({ phoneField: "phone", fields: [], example: [{ phone: "+14155552671" }] })).toEqual([]);
  });

  it("reads stored configurations leniently", () => {
    expect(parseStoredTriggerConfig({ phoneField: "phone", fields: [row("a", "a")] })).toMatchObject({ phoneFallbacks: [], countryField: null, example: null });
    expect(parseStoredTriggerConfig({ phoneField: "a b", phoneFallbacks: ["x.y", "bad path"], countryField: 7, fields: [row("ok", "ok"), row("a b", "c")], example: "no" })).toEqual({
      phoneField: "phone",
      phoneFallbacks: ["x.y"],
      countryField: null,
      fields: [{ ...row("ok", "ok"), fallbacks: [], update: "always" }],
      example: null,
    });
    // The rule in effect is filled in: only when empty for the name, always for others, a stored rule kept.
    const rules = parseStoredTriggerConfig({ phoneField: "phone", fields: [row("first", "name"), row("city", "city"), { ...row("order", "order_id"), update: "never" }] });
    expect(rules.fields.map((f) => f.update)).toEqual(["when_empty", "always", "never"]);
  });

  it("rejects duplicate field names, a field reusing the phone field and a second writer of one attribute", () => {
    expect(issues({ phoneField: "phone", fields: [row("name", "name"), row("name", "other"), row("phone", "p2"), row("city", "name")] })).toEqual([
      'fields[1].field: The field "name" is listed twice.',
      'fields[2].field: "phone" is already the phone field.',
      'fields[3].attribute: Two fields write to the attribute "name".',
    ]);
  });

  it("refuses custom fields mapped to phoneNumber and unknown types", () => {
    expect(issues({ phoneField: "phone", fields: [row("mobile", "phoneNumber")] })).toEqual([
      "fields[0].attribute: The phone number comes from the phone field; pick another attribute.",
    ]);
    expect(issues({ phoneField: "phone", fields: [row("a", "a", "uuid")] })).toHaveLength(1);
  });

  it("validates the whole builder form, including a blank campaign name", () => {
    const result = campaignEditorSchema.safeParse({
      name: "  ",
      triggerConfig: { phoneField: "phone", fields: [] },
      templateId: null,
      messageConfig: { variables: [{ key: "body.1", attribute: "name", fallback: "" }, { key: "body.1", attribute: null, fallback: null }] },
    });
    expect(result.success).toBe(false);
    expect(result.error?.issues.map((i) => formatPath(i.path))).toEqual(["name", "messageConfig.variables[1].key"]);
  });
});

describe("sample payload and curl", () => {
  it("builds an example body from the mapping", () => {
    const body = samplePayload({
      phoneField: "mobile",
      fields: [
        { field: "first_name", attribute: "name", type: "string", required: true },
        { field: "order_number", attribute: "orderNumber", type: "string", required: true },
        { field: "total", attribute: "total", type: "number", required: false },
      ],
    });
    expect(body).toEqual({ mobile: "+14155552671", first_name: "Maria", order_number: "A-10482", total: 49.9 });
  });

  it("builds nested objects and arrays from paths", () => {
    const body = samplePayload({
      phoneField: "customer.phone",
      fields: [
        { field: "customer.first_name", attribute: "name", type: "string", required: true },
        { field: "line_items[0].title", attribute: "title", type: "string", required: false },
        { field: "note_attributes[name=gift_message].value", attribute: "gift", type: "string", required: false },
        { field: "total_price", attribute: "total", type: "number", required: false },
      ],
    });
    expect(body).toEqual({
      customer: { phone: "+14155552671", first_name: "Maria" },
      line_items: [{ title: "example title" }],
      note_attributes: [{ name: "gift_message", value: "example value" }],
      total_price: 49.9,
    });
    expect(payloadAttributes({ phoneField: "customer.phone", fields: [{ field: "customer.first_name", attribute: "name", type: "string", required: true }] }, body)).toEqual({
      phoneNumber: "+14155552671",
      name: "Maria",
    });
  });

  it("is the captured example when the trigger node has one", () => {
    const example = { customer: { phone: "+447911123456" }, id: 5 };
    expect(samplePayload({ phoneField: "customer.phone", fields: [], example })).toBe(example);
    expect(payloadAttributes({ phoneField: "phone", phoneFallbacks: ["customer.phone"], fields: [{ field: "id", attribute: "id", type: "number", required: false }] }, example)).toEqual({
      phoneNumber: "+447911123456",
      id: 5,
    });
  });

  it("quotes the body for a POSIX shell", () => {
    const curl = curlExample("https://app.test/api/campaigns/cmp_1/trigger", { phone: "+1", name: "O'Brien" });
    expect(curl).toBe(
      [
        "curl -X POST 'https://app.test/api/campaigns/cmp_1/trigger' \\",
        "  -H 'Content-Type: application/json' \\",
        "  -H 'x-api-key: <API_KEY>' \\",
        `  -d '{"phone":"+1","name":"O'\\''Brien"}'`,
      ].join("\n"),
    );
  });
});

describe("a new trigger field's defaults (one place for hand-added and captured fields)", () => {
  it("is required unless the captured example had no value, and fills the contact only when empty", () => {
    expect(newTriggerField()).toEqual({ field: "", fallbacks: [], attribute: "", type: "string", required: true, update: "when_empty" });
    expect(newTriggerField({ field: "customer.first_name", attribute: "first_name", exampleValue: "Sofía" }).required).toBe(true);
    expect(newTriggerField({ field: "order.count", type: "number", exampleValue: 0 }).required).toBe(true);
    expect(newTriggerField({ field: "customer.note", exampleValue: null }).required).toBe(false);
    expect(newTriggerField({ field: "customer.note", exampleValue: "  " }).required).toBe(false);
    expect(newTriggerField({ field: "customer.note", exampleValue: undefined }).required).toBe(false);
  });
});
