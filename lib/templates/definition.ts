// Writing a template: the definition a person (editor) or an integrator (POST /api/v1/templates)
// submits, Meta's rules for it (docs: /docs/templates), and the component JSON it becomes. Pure: the
// editor checks as you type with the same function the server runs before submitting.
import { z } from "zod";
import type { ParameterFormat } from "./types";

export const TEMPLATE_CATEGORIES = ["MARKETING", "UTILITY", "AUTHENTICATION"] as const;
export type TemplateCategory = (typeof TEMPLATE_CATEGORIES)[number];

/** Meta's limits (WhatsApp Cloud API, template components). */
export const TEMPLATE_LIMITS = {
  name: 512,
  headerText: 60,
  headerVariables: 1,
  body: 1024,
  footer: 60,
  buttonText: 25,
  url: 2000,
  phoneNumber: 20,
  copyCode: 15,
  example: 200,
  buttons: 10,
  urlButtons: 2,
  phoneButtons: 1,
  copyCodeButtons: 1,
} as const;

export const BUTTON_TYPES = ["QUICK_REPLY", "URL", "PHONE_NUMBER", "COPY_CODE"] as const;
export type ButtonType = (typeof BUTTON_TYPES)[number];

const text = (max: number) => z.string().max(max * 4);

const buttonSchema = z.discriminatedUnion("type", [
  z.object({ type: z.literal("QUICK_REPLY"), text: text(TEMPLATE_LIMITS.buttonText) }),
  z.object({
    type: z.literal("URL"),
    text: text(TEMPLATE_LIMITS.buttonText),
    url: text(TEMPLATE_LIMITS.url),
    example: text(TEMPLATE_LIMITS.url).optional().meta({ description: "A full example URL when `url` ends with a variable." }),
  }),
  z.object({ type: z.literal("PHONE_NUMBER"), text: text(TEMPLATE_LIMITS.buttonText), phoneNumber: text(TEMPLATE_LIMITS.phoneNumber) }),
  z.object({ type: z.literal("COPY_CODE"), example: text(TEMPLATE_LIMITS.copyCode).meta({ description: "The example code Meta reviews (≤15 characters)." }) }),
]);

/**
 * The shape of a template definition. Lengths here only bound the request; the rules (Meta's
 * limits, variables, examples) are `templateDefinitionIssues`, so the editor can show all of them at once.
 */
export const templateDefinitionSchema = z.object({
  name: text(TEMPLATE_LIMITS.name).meta({ example: "winter_sale", description: "Lowercase letters, digits and underscores, ≤512." }),
  category: z.enum(TEMPLATE_CATEGORIES),
  language: z.string().max(16).meta({ example: "en_US", description: "Meta's language code: `en`, `en_US`, `pt_BR`…" }),
  header: z
    .object({ type: z.literal("TEXT"), text: text(TEMPLATE_LIMITS.headerText) })
    .nullable()
    .default(null)
    .meta({ description: "A text header (≤60 characters, at most one variable), or null." }),
  body: text(TEMPLATE_LIMITS.body).meta({ example: "Hi {{first_name}}, our winter sale starts today: 20% off everything." }),
  footer: text(TEMPLATE_LIMITS.footer).nullable().default(null),
  buttons: z.array(buttonSchema).max(TEMPLATE_LIMITS.buttons * 2).default([]),
  examples: z
    .record(z.string().max(64), text(TEMPLATE_LIMITS.example))
    .default({})
    .meta({ description: "An example value for every variable of the header and body, by name (`first_name`, or `1`, `2`… for positional ones).", example: { first_name: "Maria" } }),
});

export type TemplateDefinition = z.infer<typeof templateDefinitionSchema>;
export type TemplateButton = TemplateDefinition["buttons"][number];

export interface DefinitionIssue {
  /** Where: `name`, `language`, `header`, `body`, `footer`, `buttons`, `buttons.<i>`, `examples.<name>`. */
  path: string;
  message: string;
}

const NAME = /^[a-z0-9_]+$/;
const LANGUAGE = /^[a-z]{2,3}(_[A-Z]{2})?$/;
const VARIABLE = /\{\{\s*([^{}]*?)\s*\}\}/g;
const NAMED = /^[a-z][a-z0-9_]*$/;
const POSITIONAL = /^[1-9][0-9]*$/;

/** Variables as written in a text, in order of appearance (may repeat). */
export function variablesIn(value: string): string[] {
  return [...value.matchAll(VARIABLE)].map((m) => m[1] ?? "");
}

/** The parameter format a definition uses: named when any variable is a name. */
export function definitionFormat(definition: Pick<TemplateDefinition, "header" | "body" | "buttons">): ParameterFormat {
  const all = [...variablesIn(definition.header?.text ?? ""), ...variablesIn(definition.body)];
  return all.some((name) => NAMED.test(name)) ? "NAMED" : "POSITIONAL";
}

/** Header and body variables in order, each once: the ones that need an example. */
export function definitionVariables(definition: Pick<TemplateDefinition, "header" | "body">): string[] {
  const names: string[] = [];
  for (const name of [...variablesIn(definition.header?.text ?? ""), ...variablesIn(definition.body)]) {
    if ((NAMED.test(name) || POSITIONAL.test(name)) && !names.includes(name)) names.push(name);
  }
  return names;
}

function length(value: string): number {
  return [...value].length;
}

function checkVariables(path: string, value: string, format: ParameterFormat, issues: DefinitionIssue[]) {
  const names = variablesIn(value);
  for (const name of names) {
    if (!NAMED.test(name) && !POSITIONAL.test(name)) {
      issues.push({ path, message: `{{${name}}} is not a variable: use {{1}}, {{2}}… or a name such as {{first_name}} (lowercase letters, digits, underscores).` });
    } else if ((format === "NAMED") !== NAMED.test(name)) {
      issues.push({ path, message: "Use either named variables ({{first_name}}) or numbered ones ({{1}}), not both." });
      return;
    }
  }
  const stray = value.replace(VARIABLE, "");
  if (stray.includes("{{") || stray.includes("}}")) issues.push({ path, message: "Unbalanced braces: a variable is written {{1}} or {{first_name}}." });
}

/** Every rule a definition breaks, in form order; empty when Meta would accept it for review. */
export function templateDefinitionIssues(definition: TemplateDefinition): DefinitionIssue[] {
  const issues: DefinitionIssue[] = [];
  const format = definitionFormat(definition);

  if (!definition.name) issues.push({ path: "name", message: "Give the template a name." });
  else if (!NAME.test(definition.name)) issues.push({ path: "name", message: "Use lowercase letters, digits and underscores only (winter_sale_2026)." });
  if (length(definition.name) > TEMPLATE_LIMITS.name) issues.push({ path: "name", message: `At most ${TEMPLATE_LIMITS.name} characters.` });
  if (!LANGUAGE.test(definition.language)) issues.push({ path: "language", message: "Choose a language (a code such as en or en_US)." });

  if (definition.header) {
    const header = definition.header.text;
    if (!header.trim()) issues.push({ path: "header", message: "Write the header, or choose no header." });
    if (length(header) > TEMPLATE_LIMITS.headerText) issues.push({ path: "header", message: `At most ${TEMPLATE_LIMITS.headerText} characters.` });
    checkVariables("header", header, format, issues);
    if (variablesIn(header).length > TEMPLATE_LIMITS.headerVariables) issues.push({ path: "header", message: "A header has at most one variable." });
  }

  const body = definition.body;
  if (!body.trim()) issues.push({ path: "body", message: "Write the message body." });
  if (length(body) > TEMPLATE_LIMITS.body) issues.push({ path: "body", message: `At most ${TEMPLATE_LIMITS.body} characters.` });
  checkVariables("body", body, format, issues);
  const trimmed = body.trim();
  if (/^\{\{[^{}]*\}\}/.test(trimmed) || /\{\{[^{}]*\}\}$/.test(trimmed)) {
    issues.push({ path: "body", message: "A variable cannot start or end the body: add text before and after it." });
  }
  if (format === "POSITIONAL") {
    const numbers = [...new Set(variablesIn(body).filter((n) => POSITIONAL.test(n)).map(Number))].sort((a, b) => a - b);
    if (numbers.some((n, i) => n !== i + 1)) issues.push({ path: "body", message: "Number the variables in order from {{1}}, without gaps." });
  }

  for (const name of definitionVariables(definition)) {
    if (!definition.examples[name]?.trim()) issues.push({ path: `examples.${name}`, message: `Give an example for {{${name}}}: Meta reviews the template with it.` });
  }

  if (definition.footer !== null) {
    if (!definition.footer.trim()) issues.push({ path: "footer", message: "Write the footer, or remove it." });
    if (length(definition.footer) > TEMPLATE_LIMITS.footer) issues.push({ path: "footer", message: `At most ${TEMPLATE_LIMITS.footer} characters.` });
    if (/\{\{|\}\}/.test(definition.footer)) issues.push({ path: "footer", message: "A footer cannot have variables." });
  }

  checkButtons(definition.buttons, issues);
  return issues;
}

function checkButtons(buttons: TemplateButton[], issues: DefinitionIssue[]) {
  const count = (type: ButtonType) => buttons.filter((b) => b.type === type).length;
  if (buttons.length > TEMPLATE_LIMITS.buttons) issues.push({ path: "buttons", message: `At most ${TEMPLATE_LIMITS.buttons} buttons.` });
  if (count("URL") > TEMPLATE_LIMITS.urlButtons) issues.push({ path: "buttons", message: `At most ${TEMPLATE_LIMITS.urlButtons} link buttons.` });
  if (count("PHONE_NUMBER") > TEMPLATE_LIMITS.phoneButtons) issues.push({ path: "buttons", message: "At most one call button." });
  if (count("COPY_CODE") > TEMPLATE_LIMITS.copyCodeButtons) issues.push({ path: "buttons", message: "At most one copy-code button." });
  const quick = buttons.map((b, i) => (b.type === "QUICK_REPLY" ? i : -1)).filter((i) => i >= 0);
  if (quick.length > 0 && quick[quick.length - 1]! - quick[0]! !== quick.length - 1) {
    issues.push({ path: "buttons", message: "Keep the quick replies together (before or after the other buttons)." });
  }
  buttons.forEach((button, index) => {
    const path = `buttons.${index}`;
    if (button.type !== "COPY_CODE") {
      if (!button.text.trim()) issues.push({ path, message: "Write the button's label." });
      if (length(button.text) > TEMPLATE_LIMITS.buttonText) issues.push({ path, message: `A label has at most ${TEMPLATE_LIMITS.buttonText} characters.` });
    }
    if (button.type === "URL") {
      const vars = variablesIn(button.url);
      if (!/^https?:\/\/[^\s/]+\.[^\s]+$/.test(button.url.replace(VARIABLE, "x"))) issues.push({ path, message: "Enter a web address starting with https://." });
      if (length(button.url) > TEMPLATE_LIMITS.url) issues.push({ path, message: `A link has at most ${TEMPLATE_LIMITS.url} characters.` });
      if (vars.length > 1) issues.push({ path, message: "A link has at most one variable." });
      else if (vars.length === 1 && !/\{\{[^{}]*\}\}$/.test(button.url)) issues.push({ path, message: "A link's variable must be at its end (https://shop.example/track/{{1}})." });
      else if (vars.length === 1 && !button.example?.trim()) issues.push({ path, message: "Give a full example link for the link's variable." });
    }
    if (button.type === "PHONE_NUMBER" && !/^\+[1-9][0-9]{6,18}$/.test(button.phoneNumber.replace(/[\s()-]/g, ""))) {
      issues.push({ path, message: "Enter the phone number with its country code (+34 612 345 678), at most 20 characters." });
    }
    if (button.type === "COPY_CODE") {
      if (!button.example.trim()) issues.push({ path, message: "Give an example code." });
      if (length(button.example) > TEMPLATE_LIMITS.copyCode) issues.push({ path, message: `A code has at most ${TEMPLATE_LIMITS.copyCode} characters.` });
    }
  });
}

function positionalExamples(names: string[], examples: Record<string, string>): string[] {
  return names.map((name) => examples[name] ?? "");
}

function uniqueInOrder(names: string[]): string[] {
  return names.filter((name, index) => names.indexOf(name) === index);
}

/** The definition as Meta's component JSON (what `POST /{waba-id}/message_templates` takes and what we store). */
export function definitionComponents(definition: TemplateDefinition): unknown[] {
  const format = definitionFormat(definition);
  const components: unknown[] = [];
  const examples = definition.examples;
  if (definition.header) {
    const names = uniqueInOrder(variablesIn(definition.header.text));
    components.push({
      type: "HEADER",
      format: "TEXT",
      text: definition.header.text,
      ...(names.length === 0
        ? {}
        : format === "NAMED"
          ? { example: { header_text_named_params: names.map((name) => ({ param_name: name, example: examples[name] ?? "" })) } }
          : { example: { header_text: positionalExamples(names, examples) } }),
    });
  }
  const bodyNames = uniqueInOrder(variablesIn(definition.body));
  components.push({
    type: "BODY",
    text: definition.body,
    ...(bodyNames.length === 0
      ? {}
      : format === "NAMED"
        ? { example: { body_text_named_params: bodyNames.map((name) => ({ param_name: name, example: examples[name] ?? "" })) } }
        : { example: { body_text: [positionalExamples([...bodyNames].sort((a, b) => Number(a) - Number(b)), examples)] } }),
  });
  if (definition.footer) components.push({ type: "FOOTER", text: definition.footer });
  if (definition.buttons.length > 0) {
    components.push({
      type: "BUTTONS",
      buttons: definition.buttons.map((button) => {
        switch (button.type) {
          case "QUICK_REPLY":
            return { type: "QUICK_REPLY", text: button.text };
          case "URL":
            return { type: "URL", text: button.text, url: button.url, ...(variablesIn(button.url).length > 0 ? { example: [button.example ?? ""] } : {}) };
          case "PHONE_NUMBER":
            return { type: "PHONE_NUMBER", text: button.text, phone_number: button.phoneNumber.replace(/[\s()-]/g, "") };
          case "COPY_CODE":
            return { type: "COPY_CODE", example: button.example };
        }
      }),
    });
  }
  return components;
}
