import { describe, expect, it } from "vitest";
import type { FieldError } from "@/lib/http/errors";
import { parseStrict } from "@/lib/http/request";
import type { TemplateVariable } from "@/lib/templates/types";
import { journeySchema } from "./journey";
import {
  alignVariables,
  builderEditorSchema,
  alwaysSentAttributes,
  attributeOptions,
  campaignUpdateBody,
  formPath,
  guessAttribute,
  mayBeEmpty,
  nullIfEmpty,
  previewValues,
  splitCampaignResponse,
  splitMessageChecks,
  toFormValues,
  usableTrigger,
  type CampaignResponse,
  type EditableCampaign,
} from "./editor";
import { campaignEditorSchema, updateCampaignSchema, type FieldType, type TriggerField } from "./schemas";
import type { DeploymentDetails } from "./deployment";

const row = (field: string, attribute: string, required = true, type: FieldType = "string"): TriggerField => ({ field, fallbacks: [], attribute, type, required });
const bodyVar = (name: string, example?: string): TemplateVariable => ({ key: `body.${name}`, component: "body", name, ...(example ? { example } : {}) });
const check = (path: string, message = `problem at ${path}`): FieldError => ({ path, code: "custom", message });

describe("nullIfEmpty", () => {
  it("turns empty inputs into null and keeps every other value", () => {
    expect(nullIfEmpty("")).toBeNull();
    expect(nullIfEmpty(undefined)).toBeNull();
    expect(nullIfEmpty("there")).toBe("there");
    expect(nullIfEmpty(" ")).toBe(" ");
    expect(nullIfEmpty(0)).toBe(0);
    expect(nullIfEmpty(false)).toBe(false);
  });
});

describe("guessAttribute", () => {
  it("never guesses for positional variables, even when an attribute has the same name", () => {
    expect(guessAttribute(bodyVar("1"), ["1", "name"])).toBeNull();
  });

  it("uses the attribute named like the variable", () => {
    expect(guessAttribute(bodyVar("order_number"), ["name", "order_number"])).toBe("order_number");
  });

  it("maps first and customer names to `name` when that attribute exists", () => {
    expect(guessAttribute(bodyVar("first_name"), ["name"])).toBe("name");
    expect(guessAttribute(bodyVar("FirstName"), ["name"])).toBe("name");
    expect(guessAttribute(bodyVar("customer_name"), ["name"])).toBe("name");
    expect(guessAttribute(bodyVar("first_name"), ["city"])).toBeNull();
    expect(guessAttribute(bodyVar("last_name"), ["name"])).toBeNull();
  });

  it("prefers the exact attribute over the `name` alias", () => {
    expect(guessAttribute(bodyVar("first_name"), ["name", "first_name"])).toBe("first_name");
  });

  it("leaves unknown names unmapped", () => {
    expect(guessAttribute(bodyVar("tracking_id"), ["name", "order_number"])).toBeNull();
    expect(guessAttribute(bodyVar("tracking_id"), [])).toBeNull();
  });
});

describe("alignVariables", () => {
  const template = { variables: [bodyVar("first_name"), bodyVar("order_number"), bodyVar("tracking_id")] };

  it("returns no rows without a template", () => {
    expect(alignVariables(undefined, [{ key: "body.1", attribute: "name", fallback: null }], ["name"])).toEqual([]);
  });

  it("makes one row per variable in template order, guessing the new ones", () => {
    expect(alignVariables(template, [], ["name", "order_number"])).toEqual([
      { key: "body.first_name", attribute: "name", fallback: null },
      { key: "body.order_number", attribute: "order_number", fallback: null },
      { key: "body.tracking_id", attribute: null, fallback: null },
    ]);
  });

  it("keeps existing mappings for the same key (even an empty one) and drops those the template no longer has", () => {
    const current = [
      { key: "body.gone", attribute: "city", fallback: "Lisbon" },
      { key: "body.tracking_id", attribute: "tracking", fallback: "latest" },
      { key: "body.first_name", attribute: null, fallback: "there" },
    ];
    expect(alignVariables(template, current, ["name", "order_number"])).toEqual([
      { key: "body.first_name", attribute: null, fallback: "there" },
      { key: "body.order_number", attribute: "order_number", fallback: null },
      { key: "body.tracking_id", attribute: "tracking", fallback: "latest" },
    ]);
  });

  it("turns half-filled rows into explicit nulls", () => {
    const current = [{ key: "body.order_number" } as { key: string; attribute: string | null; fallback: string | null }];
    expect(alignVariables({ variables: [bodyVar("order_number")] }, current, ["order_number"])).toEqual([{ key: "body.order_number", attribute: null, fallback: null }]);
  });
});

describe("toFormValues", () => {
  const campaign: EditableCampaign = {
    name: "Order confirmation",
    triggerConfig: { phoneField: "mobile", phoneFallbacks: [], countryField: null, fields: [row("name", "name"), row("order", "order_number", false, "string")], example: null },
    templateId: "tpl_1",
    messageConfig: { variables: [{ key: "body.1", attribute: "name", fallback: "there" }, { key: "body.old", attribute: "city", fallback: null }] },
  };
  const templates = [{ id: "tpl_1", variables: [bodyVar("1"), bodyVar("order_number")] }];

  it("copies the campaign and aligns its mappings with the chosen template", () => {
    const values = toFormValues(campaign, templates, ["name", "order_number"]);
    expect(values).toEqual({
      name: "Order confirmation",
      // A stored field without an update rule shows the rule in effect: only when empty for the name, always for others.
      triggerConfig: {
        phoneField: "mobile",
        phoneFallbacks: [],
        countryField: null,
        fields: [
          { ...row("name", "name"), update: "when_empty" },
          { ...row("order", "order_number", false), update: "always" },
        ],
        example: null,
      },
      templateId: "tpl_1",
      messageConfig: {
        variables: [
          { key: "body.1", attribute: "name", fallback: "there" },
          { key: "body.order_number", attribute: "order_number", fallback: null },
        ],
      },
      respectOptOut: true,
      sendPolicy: { quietHours: null, frequencyCap: null },
    });
    expect(toFormValues({ ...campaign, respectOptOut: false }, templates, []).respectOptOut).toBe(false);
  });

  it("copies the trigger rows so editing the form never changes the campaign", () => {
    const values = toFormValues(campaign, templates, []);
    expect(values.triggerConfig.fields[0]).not.toBe(campaign.triggerConfig.fields[0]);
    values.triggerConfig.fields[0]!.field = "changed";
    expect(campaign.triggerConfig.fields[0]!.field).toBe("name");
  });

  it("keeps the template id but no mappings when the template is unknown", () => {
    const values = toFormValues(campaign, [], ["name"]);
    expect(values.templateId).toBe("tpl_1");
    expect(values.messageConfig.variables).toEqual([]);
  });
});

describe("formPath", () => {
  it("turns API field paths into react-hook-form paths", () => {
    expect(formPath("triggerConfig.fields[0].field")).toBe("triggerConfig.fields.0.field");
    expect(formPath("messageConfig.variables[12].fallback")).toBe("messageConfig.variables.12.fallback");
    expect(formPath("a[1][2]")).toBe("a.1.2");
    expect(formPath("name")).toBe("name");
  });
});

describe("usableTrigger", () => {
  it("falls back to `phone` without a trigger or with a phone field that is not a path", () => {
    expect(usableTrigger(undefined)).toEqual({ phoneField: "phone", phoneFallbacks: [], countryField: null, fields: [], example: null });
    expect(usableTrigger({ phoneField: "customer.phone", fields: [] }).phoneField).toBe("customer.phone");
    expect(usableTrigger({ phoneField: "customer..phone", fields: [] }).phoneField).toBe("phone");
    expect(usableTrigger({ phoneField: "", fields: [] }).phoneField).toBe("phone");
    expect(usableTrigger({ phoneField: "my phone", fields: [] }).phoneField).toBe("phone");
    expect(usableTrigger({ phoneField: "mobile", fields: [] }).phoneField).toBe("mobile");
  });

  it("leaves out empty, invalid and phone-field rows and keeps the rest unchanged", () => {
    const fields = [row("", ""), row("1st!", "first"), row("order number", "order"), row("mobile", "m"), row("name", "name"), row("total", "total", false, "number")];
    expect(usableTrigger({ phoneField: "mobile", fields }).fields).toEqual([row("name", "name"), row("total", "total", false, "number")]);
  });

  it("keeps valid fallbacks and a valid country field, dropping half-typed ones", () => {
    const trigger = usableTrigger({
      phoneField: "customer.phone",
      phoneFallbacks: ["shipping_address.phone", "", "bad path"],
      countryField: "shipping_address.country_code",
      fields: [{ ...row("line_items[0].title", "title"), fallbacks: ["", "line_items[1].title"] }, row("customer.phone", "x")],
    });
    expect(trigger).toMatchObject({
      phoneFallbacks: ["shipping_address.phone"],
      countryField: "shipping_address.country_code",
      fields: [{ field: "line_items[0].title", fallbacks: ["line_items[1].title"] }],
    });
  });

  it("compares rows with the phone field actually used", () => {
    expect(usableTrigger({ phoneField: "bad field", fields: [row("phone", "p"), row("bad field", "b"), row("name", "name")] }).fields).toEqual([row("name", "name")]);
  });
});

describe("attributeOptions", () => {
  it("lists the phone first, then the trigger's attributes once each, then the other stored attributes", () => {
    const trigger = { phoneField: "phone", fields: [row("name", "name"), row("order", "order_number"), row("order2", "order_number"), row("x", ""), row("y", "bad-name")] };
    expect(attributeOptions(trigger, ["city", "name", "phoneNumber", "vip"])).toEqual({
      fromTrigger: ["phoneNumber", "name", "order_number"],
      stored: ["city", "vip"],
    });
  });

  it("offers the phone and the stored attributes without a trigger", () => {
    expect(attributeOptions(undefined, ["city"])).toEqual({ fromTrigger: ["phoneNumber"], stored: ["city"] });
  });
});

describe("alwaysSentAttributes and mayBeEmpty", () => {
  const trigger = { phoneField: "phone", fields: [row("name", "name", true), row("city", "city", false)] };
  const alwaysSent = alwaysSentAttributes(trigger);

  it("counts the phone and the required fields as always sent", () => {
    expect([...alwaysSent]).toEqual(["phoneNumber", "name"]);
    expect([...alwaysSentAttributes(undefined)]).toEqual(["phoneNumber"]);
  });

  it("warns only for optional or stored attributes without a fallback", () => {
    expect(mayBeEmpty({ key: "body.1", attribute: "city", fallback: null }, alwaysSent)).toBe(true);
    expect(mayBeEmpty({ key: "body.1", attribute: "vip", fallback: "  " }, alwaysSent)).toBe(true);
    expect(mayBeEmpty({ key: "body.1", attribute: "city", fallback: "Lisbon" }, alwaysSent)).toBe(false);
    expect(mayBeEmpty({ key: "body.1", attribute: "name", fallback: null }, alwaysSent)).toBe(false);
    expect(mayBeEmpty({ key: "body.1", attribute: "phoneNumber", fallback: null }, alwaysSent)).toBe(false);
    expect(mayBeEmpty({ key: "body.1", attribute: null, fallback: null }, alwaysSent)).toBe(false);
    expect(mayBeEmpty(undefined, alwaysSent)).toBe(false);
  });
});

describe("splitMessageChecks", () => {
  it("separates the template check, the per-variable checks by key and the rest", () => {
    const checks = [check("message.template"), check("message.variables.body.1"), check("message.variables.button.0.tracking_id"), check("message.sender")];
    const split = splitMessageChecks(checks);
    expect(split.template).toBe(checks[0]);
    expect([...split.variables.keys()]).toEqual(["body.1", "button.0.tracking_id"]);
    expect(split.variables.get("body.1")).toBe(checks[1]);
    expect(split.others).toEqual([checks[3]]);
  });

  it("is empty without checks", () => {
    const split = splitMessageChecks([]);
    expect(split.template).toBeUndefined();
    expect(split.variables.size).toBe(0);
    expect(split.others).toEqual([]);
  });
});

describe("previewValues", () => {
  const attributes = { phoneNumber: "+14155552671", name: "Maria", count: 3, blank: "   ", nested: { a: 1 } };

  it("fills from the attribute, then the fallback, then shows the attribute as a placeholder", () => {
    expect(
      previewValues(
        [
          { key: "body.1", attribute: "name", fallback: "there" },
          { key: "body.2", attribute: "count", fallback: null },
          { key: "body.3", attribute: "missing", fallback: "your order" },
          { key: "body.4", attribute: "missing", fallback: null },
          { key: "body.5", attribute: null, fallback: "latest" },
          { key: "body.6", attribute: null, fallback: null },
        ],
        attributes,
      ),
    ).toEqual({ "body.1": "Maria", "body.2": "3", "body.3": "your order", "body.4": "[missing]", "body.5": "latest", "body.6": undefined });
  });

  it("treats blank values, blank fallbacks and objects as missing", () => {
    expect(
      previewValues(
        [
          { key: "body.1", attribute: "blank", fallback: "  " },
          { key: "body.2", attribute: "nested", fallback: "n/a" },
          { key: "body.3", attribute: null, fallback: " " },
        ],
        attributes,
      ),
    ).toEqual({ "body.1": "[blank]", "body.2": "n/a", "body.3": undefined });
  });

  it("skips rows without a key and copes with no rows", () => {
    expect(previewValues([undefined, { key: "", attribute: "name", fallback: null }, { attribute: "name" }], attributes)).toEqual({});
    expect(previewValues(undefined, attributes)).toEqual({});
  });
});

describe("campaignUpdateBody", () => {
  const values = campaignEditorSchema.parse({
    name: "Order confirmation",
    triggerConfig: { phoneField: "phone", fields: [row("name", "name")] },
    templateId: "tpl_1",
    messageConfig: { variables: [{ key: "body.1", attribute: "name", fallback: "  " }] },
  });

  it("sends the edited configuration with the expected version", () => {
    expect(campaignUpdateBody(values, 4)).toEqual({
      name: "Order confirmation",
      triggerConfig: { phoneField: "phone", phoneFallbacks: [], countryField: null, fields: [row("name", "name")], example: null },
      templateId: "tpl_1",
      messageConfig: { variables: [{ key: "body.1", attribute: "name", fallback: null }] },
      version: 4,
    });
  });

  it("leaves out members the strict REST body would refuse, at every depth", () => {
    const withExtras = {
      ...values,
      status: "draft",
      triggerConfig: { ...values.triggerConfig, fields: values.triggerConfig.fields.map((f) => ({ ...f, id: "row-1" })) },
      messageConfig: { variables: values.messageConfig.variables.map((v) => ({ ...v, label: "Body {{1}}" })) },
    } as typeof values;
    expect(() => parseStrict(updateCampaignSchema, { ...withExtras, version: 4 })).toThrow();
    const body = campaignUpdateBody(withExtras, 4);
    expect(() => parseStrict(updateCampaignSchema, body)).not.toThrow();
    expect(parseStrict(updateCampaignSchema, body)).toEqual(campaignUpdateBody(values, 4));
  });

  it("sends the opt-out choice when the form has one, and leaves it out otherwise", () => {
    const off = campaignEditorSchema.parse({ ...values, respectOptOut: false });
    expect(campaignUpdateBody(off, 4)).toMatchObject({ respectOptOut: false, version: 4 });
    expect(parseStrict(updateCampaignSchema, campaignUpdateBody(off, 4))).toMatchObject({ respectOptOut: false });
    expect("respectOptOut" in campaignUpdateBody(values, 4)).toBe(false);
  });

  it("sends a cleared template as null", () => {
    const cleared = campaignEditorSchema.parse({ name: "Draft", triggerConfig: { phoneField: "phone", fields: [] }, templateId: null, messageConfig: { variables: [] } });
    expect(campaignUpdateBody(cleared, 1)).toEqual({ name: "Draft", triggerConfig: { phoneField: "phone", phoneFallbacks: [], countryField: null, fields: [], example: null }, templateId: null, messageConfig: { variables: [] }, version: 1 });
  });
});

describe("the journey in the builder's form and body", () => {
  const base = { name: "Cart", triggerConfig: { phoneField: "phone", fields: [] }, templateId: null, messageConfig: { variables: [] } };
  const journey = journeySchema.parse({ firstStepId: "end_1", steps: [{ id: "end_1", type: "end" }] });

  it("names the journey only for a campaign that has one (or had one and dropped it)", () => {
    expect("journey" in campaignUpdateBody(builderEditorSchema.parse(base), 1)).toBe(false);
    expect(campaignUpdateBody(builderEditorSchema.parse({ ...base, journey }), 1)).toMatchObject({ journey });
    expect(campaignUpdateBody(builderEditorSchema.parse({ ...base, journey: null }), 1)).toMatchObject({ journey: null });
  });

  it("reads a stored journey into the form, and a campaign without one (or an unreadable one) leaves it out", () => {
    const campaign = { name: "Cart", triggerConfig: usableTrigger(undefined), templateId: null, messageConfig: { variables: [] } };
    expect(toFormValues({ ...campaign, journey }, [], []).journey).toEqual(journey);
    expect("journey" in toFormValues({ ...campaign, journey: null }, [], [])).toBe(false);
    expect("journey" in toFormValues({ ...campaign, journey: { steps: "nope" } }, [], [])).toBe(false);
  });
});

describe("splitCampaignResponse", () => {
  const campaign = {
    id: "cmp_1",
    name: "Order confirmation",
    kind: "trigger" as const,
    status: "active" as const,
    triggerConfig: { phoneField: "phone", phoneFallbacks: [], countryField: null, fields: [], example: null },
    messageConfig: { variables: [] },
    templateId: null,
    template: null,
    senderId: "snd_1",
    rateLimitPerMinute: 600,
    respectOptOut: true,
    sendPolicy: { quietHours: null, frequencyCap: null },
    journey: null,
    journeyVersion: 0,
    version: 3,
    deployedAt: "2026-03-14T10:00:00.000Z",
    bulk: null,
    createdAt: "2026-03-14T09:00:00.000Z",
    updatedAt: "2026-03-14T10:00:00.000Z",
  };
  const deployment: DeploymentDetails = {
    webhookUrls: { trigger: "https://app.test/api/campaigns/cmp_1/trigger", outbound: "https://app.test/outbound/cmp_1" },
    limits: { senderThroughputPerSecond: 80, messagingTier: "Sandbox — unlimited", triggerRequestsPerMinute: 600 },
    samplePayload: { phone: "+14155552671" },
    curl: "curl …",
  };

  it("takes the deployment out of the campaign", () => {
    const split = splitCampaignResponse({ ...campaign, deployment } satisfies CampaignResponse);
    expect(split.deployment).toBe(deployment);
    expect(split.campaign).toEqual(campaign);
    expect("deployment" in split.campaign).toBe(false);
  });

  it("passes a draft's missing deployment through as null", () => {
    const split = splitCampaignResponse({ ...campaign, status: "draft", deployment: null });
    expect(split.deployment).toBeNull();
    expect(split.campaign.status).toBe("draft");
  });
});
