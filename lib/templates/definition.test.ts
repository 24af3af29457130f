import { describe, expect, it } from "vitest";
import { definitionComponents, definitionFormat, templateDefinitionIssues, templateDefinitionSchema, type TemplateDefinition } from "./definition";
import { listTemplateVariables } from "./variables";

function def(overrides: Partial<TemplateDefinition> = {}): TemplateDefinition {
  return templateDefinitionSchema.parse({
    name: "winter_sale",
    category: "MARKETING",
    language: "en_US",
    body: "Hi {{first_name}}, our winter sale starts today.",
    examples: { first_name: "Maria" },
    ...overrides,
  });
}

const paths = (d: TemplateDefinition) => templateDefinitionIssues(d).map((i) => i.path);

describe("templateDefinitionIssues", () => {
  it("accepts a complete definition with every kind of button", () => {
    const d = def({
      header: { type: "TEXT", text: "Sale for {{first_name}}" },
      footer: "Reply STOP to opt out",
      buttons: [
        { type: "QUICK_REPLY", text: "Interested" },
        { type: "QUICK_REPLY", text: "Not now" },
        { type: "URL", text: "Shop now", url: "https://shop.example.com/sale/{{1}}", example: "https://shop.example.com/sale/abc" },
        { type: "PHONE_NUMBER", text: "Call us", phoneNumber: "+34 612 345 678" },
        { type: "COPY_CODE", example: "WINTER20" },
      ],
    });
    expect(templateDefinitionIssues(d)).toEqual([]);
  });

  it("checks the name: lowercase letters, digits, underscores, ≤512", () => {
    expect(paths(def({ name: "Winter Sale" }))).toEqual(["name"]);
    expect(paths(def({ name: "" }))).toEqual(["name"]);
    expect(paths(def({ name: "a".repeat(512) }))).toEqual([]);
    expect(paths(def({ name: "a".repeat(513) }))).toEqual(["name"]);
  });

  it("checks the language code", () => {
    expect(paths(def({ language: "english" }))).toEqual(["language"]);
    expect(paths(def({ language: "pt_BR" }))).toEqual([]);
  });

  it("limits the header to 60 characters and one variable", () => {
    expect(paths(def({ header: { type: "TEXT", text: "x".repeat(60) } }))).toEqual([]);
    expect(paths(def({ header: { type: "TEXT", text: "x".repeat(61) } }))).toEqual(["header"]);
    const two = def({ header: { type: "TEXT", text: "{{first_name}} and {{city}}" }, examples: { first_name: "M", city: "Madrid" } });
    expect(templateDefinitionIssues(two).map((i) => i.message)).toContain("A header has at most one variable.");
  });

  it("limits the body to 1024 characters and keeps variables off its edges", () => {
    expect(paths(def({ body: `Hi ${"x".repeat(1021)}` }))).toEqual([]);
    expect(paths(def({ body: `Hi ${"x".repeat(1022)}` }))).toEqual(["body"]);
    expect(paths(def({ body: "{{first_name}}, the sale starts" }))).toEqual(["body"]);
    expect(paths(def({ body: "The sale starts, {{first_name}}" }))).toEqual(["body"]);
    expect(paths(def({ body: "The sale starts, {{first_name}}." }))).toEqual([]);
    expect(paths(def({ body: "   " }))).toContain("body");
  });

  it("refuses mixed named and positional variables, gaps and malformed ones", () => {
    expect(paths(def({ body: "Hi {{first_name}}, code {{1}} today", examples: { first_name: "M", "1": "X" } }))).toContain("body");
    expect(paths(def({ body: "Hi {{1}}, code {{3}} today", examples: { "1": "M", "3": "X" } }))).toEqual(["body"]);
    expect(paths(def({ body: "Hi {{First Name}} today", examples: {} }))).toEqual(["body"]);
    expect(paths(def({ body: "Hi {{first_name} today" }))).toContain("body");
  });

  it("wants an example for every variable", () => {
    expect(paths(def({ examples: {} }))).toEqual(["examples.first_name"]);
    expect(paths(def({ body: "Hi {{1}}, code {{2}} today", examples: { "1": "Maria" } }))).toEqual(["examples.2"]);
  });

  it("limits the footer to 60 characters without variables", () => {
    expect(paths(def({ footer: "x".repeat(61) }))).toEqual(["footer"]);
    expect(paths(def({ footer: "Hi {{first_name}}" }))).toEqual(["footer"]);
  });

  it("checks buttons: labels, counts, links, phone numbers and codes", () => {
    expect(paths(def({ buttons: [{ type: "QUICK_REPLY", text: "x".repeat(26) }] }))).toEqual(["buttons.0"]);
    expect(paths(def({ buttons: Array.from({ length: 11 }, () => ({ type: "QUICK_REPLY" as const, text: "Yes" })) }))).toEqual(["buttons"]);
    const link = { type: "URL" as const, text: "Open", url: "https://shop.example.com" };
    expect(paths(def({ buttons: [link, link, link] }))).toEqual(["buttons"]);
    expect(paths(def({ buttons: [{ ...link, url: "https://shop.example.com/{{1}}/x" }] }))).toEqual(["buttons.0"]);
    expect(paths(def({ buttons: [{ ...link, url: "https://shop.example.com/{{1}}" }] }))).toEqual(["buttons.0"]);
    expect(paths(def({ buttons: [{ ...link, url: "shop.example.com" }] }))).toEqual(["buttons.0"]);
    expect(paths(def({ buttons: [{ type: "PHONE_NUMBER", text: "Call", phoneNumber: "612 345" }] }))).toEqual(["buttons.0"]);
    expect(paths(def({ buttons: [{ type: "COPY_CODE", example: "x".repeat(16) }] }))).toEqual(["buttons.0"]);
    const quick = { type: "QUICK_REPLY" as const, text: "Yes" };
    expect(paths(def({ buttons: [quick, link, quick] }))).toEqual(["buttons"]);
  });
});

describe("definitionComponents", () => {
  it("builds Meta's named component JSON that the send path reads back", () => {
    const d = def({ header: { type: "TEXT", text: "For {{first_name}}" }, footer: "Demo Shop", buttons: [{ type: "URL", text: "Shop", url: "https://s.example.com/{{code}}", example: "https://s.example.com/x1" }] });
    expect(definitionFormat(d)).toBe("NAMED");
    const components = definitionComponents(d);
    expect(components).toEqual([
      { type: "HEADER", format: "TEXT", text: "For {{first_name}}", example: { header_text_named_params: [{ param_name: "first_name", example: "Maria" }] } },
      { type: "BODY", text: d.body, example: { body_text_named_params: [{ param_name: "first_name", example: "Maria" }] } },
      { type: "FOOTER", text: "Demo Shop" },
      { type: "BUTTONS", buttons: [{ type: "URL", text: "Shop", url: "https://s.example.com/{{code}}", example: ["https://s.example.com/x1"] }] },
    ]);
    expect(listTemplateVariables({ parameterFormat: "NAMED", components }).map((v) => [v.key, v.example])).toEqual([
      ["header.first_name", "Maria"],
      ["body.first_name", "Maria"],
      ["button.0.code", "x1"],
    ]);
  });

  it("orders positional examples by number", () => {
    const d = def({ body: "Code {{2}} for {{1}} today", examples: { "1": "Maria", "2": "X1" } });
    expect(definitionFormat(d)).toBe("POSITIONAL");
    expect(definitionComponents(d)[0]).toEqual({ type: "BODY", text: "Code {{2}} for {{1}} today", example: { body_text: [["Maria", "X1"]] } });
  });
});
