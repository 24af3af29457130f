import { describe, expect, it } from "vitest";
import { campaignStatuses } from "@/db/schema";
import { formatPath } from "@/lib/http/problem";
import { CAMPAIGN_STATUSES, campaignEditorSchema, triggerConfigSchema } from "./schemas";
import { curlExample, samplePayload } from "./sample";

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

  it("rejects names that are not JSON-safe identifiers", () => {
    expect(issues({ phoneField: "my phone", fields: [row("1st", "ok"), row("ok", "a-b"), row("x".repeat(65), "y")] })).toHaveLength(4);
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
