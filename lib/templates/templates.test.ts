import { describe, expect, it } from "vitest";
import { messageConfigSchema } from "@/lib/campaigns/schemas";
import { renderTemplate, previewTemplate, TemplateRenderError } from "./render";
import { resolveVariableValues } from "./resolve";
import { SANDBOX_TEMPLATES } from "./sandbox";
import type { TemplateLike } from "./types";
import { listTemplateVariables } from "./variables";

const positional: TemplateLike = {
  parameterFormat: "POSITIONAL",
  components: [
    { type: "HEADER", format: "TEXT", text: "Hi {{1}}", example: { header_text: ["Ann"] } },
    { type: "BODY", text: "Order {{2}} for {{1}} ships {{2}} today", example: { body_text: [["Maria", "A-1"]] } },
    { type: "FOOTER", text: "Demo" },
    {
      type: "BUTTONS",
      buttons: [
        { type: "QUICK_REPLY", text: "Stop" },
        { type: "URL", text: "Track", url: "https://x.test/t/{{1}}", example: ["https://x.test/t/ZX9"] },
        { type: "URL", text: "Home", url: "https://x.test/" },
      ],
    },
  ],
};

const named: TemplateLike = {
  parameterFormat: "NAMED",
  components: [
    {
      type: "BODY",
      text: "Hello {{first_name}}, your code is {{code}}. Bye {{first_name}}",
      example: { body_text_named_params: [{ param_name: "first_name", example: "Maria" }, { param_name: "code", example: "X1" }] },
    },
    { type: "BUTTONS", buttons: [{ type: "URL", text: "Open", url: "https://x.test/c/{{customer}}" }] },
  ],
};

describe("listTemplateVariables", () => {
  it("lists header, body (deduplicated, in numeric order) and URL-button variables of a positional template", () => {
    expect(listTemplateVariables(positional)).toEqual([
      { key: "header.1", component: "header", name: "1", example: "Ann" },
      { key: "body.1", component: "body", name: "1", example: "Maria" },
      { key: "body.2", component: "body", name: "2", example: "A-1" },
      { key: "button.1.1", component: "button", name: "1", buttonIndex: 1, example: "ZX9" },
    ]);
  });

  it("lists named parameters in order of appearance with their examples", () => {
    expect(listTemplateVariables(named).map((v) => [v.key, v.example])).toEqual([
      ["body.first_name", "Maria"],
      ["body.code", "X1"],
      ["button.0.customer", undefined],
    ]);
  });

  it("treats a media header as one variable holding the file link", () => {
    const t: TemplateLike = { parameterFormat: "POSITIONAL", components: [{ type: "HEADER", format: "IMAGE" }, { type: "BODY", text: "Hi" }] };
    expect(listTemplateVariables(t)).toEqual([{ key: "header.image", component: "header", name: "image", media: true, example: undefined }]);
  });

  it("returns nothing for a template without placeholders or with junk components", () => {
    expect(listTemplateVariables({ parameterFormat: "POSITIONAL", components: [null, 3, { type: "BODY", text: "Plain" }] })).toEqual([]);
  });

  it("orders positional placeholders numerically past 9", () => {
    const t: TemplateLike = { parameterFormat: "POSITIONAL", components: [{ type: "BODY", text: "{{10}} {{2}} {{1}}" }] };
    expect(listTemplateVariables(t).map((v) => v.name)).toEqual(["1", "2", "10"]);
  });
});

describe("renderTemplate", () => {
  it("renders the text and the Cloud API components of a positional template", () => {
    const result = renderTemplate(positional, { "header.1": "Ann", "body.1": "Maria", "body.2": "A-1", "button.1.1": "a b/ç" });
    expect(result.text).toBe("Hi Ann\nOrder A-1 for Maria ships A-1 today\nDemo");
    expect(result.components).toEqual([
      { type: "header", parameters: [{ type: "text", text: "Ann" }] },
      { type: "body", parameters: [{ type: "text", text: "Maria" }, { type: "text", text: "A-1" }] },
      { type: "button", sub_type: "url", index: "1", parameters: [{ type: "text", text: "a%20b%2F%C3%A7" }] },
    ]);
  });

  it("sets parameter_name for named templates, including URL buttons", () => {
    const result = renderTemplate(named, { "body.first_name": "Gonçalo", "body.code": "X1", "button.0.customer": "Gonçalves" });
    expect(result.text).toBe("Hello Gonçalo, your code is X1. Bye Gonçalo");
    expect(result.components).toEqual([
      {
        type: "body",
        parameters: [
          { type: "text", parameter_name: "first_name", text: "Gonçalo" },
          { type: "text", parameter_name: "code", text: "X1" },
        ],
      },
      { type: "button", sub_type: "url", index: "0", parameters: [{ type: "text", parameter_name: "customer", text: "Gon%C3%A7alves" }] },
    ]);
  });

  it("sends a media header as a link parameter", () => {
    const t: TemplateLike = { parameterFormat: "POSITIONAL", components: [{ type: "HEADER", format: "DOCUMENT" }, { type: "BODY", text: "Invoice" }] };
    expect(renderTemplate(t, { "header.document": "https://x.test/a.pdf" }).components).toEqual([
      { type: "header", parameters: [{ type: "document", document: { link: "https://x.test/a.pdf" } }] },
    ]);
  });

  it("flattens new lines, tabs and long runs of spaces that WhatsApp rejects", () => {
    const t: TemplateLike = { parameterFormat: "POSITIONAL", components: [{ type: "BODY", text: "[{{1}}]" }] };
    const result = renderTemplate(t, { "body.1": "a\nb\tc        d" });
    expect(result.components[0]).toEqual({ type: "body", parameters: [{ type: "text", text: "a b c    d" }] });
    expect(result.text).toBe("[a b c    d]");
  });

  it("refuses to render with a missing value and names it", () => {
    expect(() => renderTemplate(positional, { "header.1": "x", "body.1": "y" })).toThrowError(TemplateRenderError);
    try {
      renderTemplate(positional, { "header.1": "x", "body.1": "y" });
    } catch (error) {
      expect((error as TemplateRenderError).missing).toEqual(["body.2", "button.1.1"]);
    }
  });

  it("previews a half-mapped template with its placeholders still visible", () => {
    const preview = previewTemplate(positional, { "body.1": "Maria" });
    expect(preview.header).toEqual({ kind: "text", text: "Hi {{1}}" });
    expect(preview.body).toBe("Order {{2}} for Maria ships {{2}} today");
    expect(preview.footer).toBe("Demo");
    expect(preview.buttons.map((b) => b.text)).toEqual(["Stop", "Track", "Home"]);
    expect(preview.buttons[1]?.url).toBe("https://x.test/t/{{1}}");
  });
});

describe("resolveVariableValues", () => {
  const config = messageConfigSchema.parse({
    variables: [
      { key: "body.first_name", attribute: "name", fallback: "there" },
      { key: "body.code", attribute: "coupon", fallback: null },
      { key: "button.0.customer", attribute: null, fallback: "guest" },
    ],
  });

  it("uses the attribute when present, else the fallback", () => {
    expect(resolveVariableValues(config, named, { name: "Ann", coupon: 42 })).toEqual({
      ok: true,
      values: { "body.first_name": "Ann", "body.code": "42", "button.0.customer": "guest" },
    });
    expect(resolveVariableValues(config, named, { name: "  ", coupon: "C" })).toEqual({
      ok: true,
      values: { "body.first_name": "there", "body.code": "C", "button.0.customer": "guest" },
    });
  });

  it("reports every variable that has neither a value nor a fallback", () => {
    expect(resolveVariableValues(config, named, { name: "Ann" })).toEqual({ ok: false, missing: ["body.code"] });
    expect(resolveVariableValues({ variables: [] }, named, {})).toEqual({ ok: false, missing: ["body.first_name", "body.code", "button.0.customer"] });
  });

  it("turns an empty fallback into no fallback", () => {
    const parsed = messageConfigSchema.parse({ variables: [{ key: "body.code", attribute: null, fallback: "   " }] });
    expect(parsed.variables[0]?.fallback).toBeNull();
  });
});

describe("sandbox templates", () => {
  it("covers the demo cases: name + order number, a URL button, a text header variable", () => {
    const byName = Object.fromEntries(SANDBOX_TEMPLATES.map((t) => [t.name, listTemplateVariables(t).map((v) => v.key)]));
    expect(byName.order_confirmation).toEqual(["body.1", "body.2"]);
    expect(byName.shipping_update).toEqual(["body.first_name", "body.order_number", "button.0.tracking_id"]);
    expect(byName.appointment_reminder).toEqual(["header.1", "body.1", "body.2", "body.3"]);
  });
});
