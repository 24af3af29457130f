// Fills a template's variables: the text the recipient reads and the Cloud API send components.
import { findComponent, asComponents, type SendComponent, type SendParameter, type TemplateLike } from "./types";
import { fillPlaceholders, headerMediaFormat, isUrlButtonWithVariable, listTemplateVariables, placeholderNames } from "./variables";

export class TemplateRenderError extends Error {
  readonly missing: string[];
  constructor(missing: string[]) {
    super(`No value for template variable${missing.length === 1 ? "" : "s"} ${missing.join(", ")}.`);
    this.name = "TemplateRenderError";
    this.missing = missing;
  }
}

/**
 * WhatsApp refuses text parameters with new lines, tabs or more than four consecutive spaces, so
 * values are flattened the same way for the send request and for the stored text.
 */
export function normalizeParameterText(value: string): string {
  return value.replace(/[\r\n\t]+/g, " ").replace(/ {5,}/g, "    ").trim();
}

export interface RenderedTemplate {
  /** The message as the recipient reads it: header, body and footer with the variables filled in. */
  text: string;
  /** The send request's `template.components`. */
  components: SendComponent[];
}

/** Renders a template for sending; every variable needs a value (else TemplateRenderError). */
export function renderTemplate(template: TemplateLike, values: Record<string, string>): RenderedTemplate {
  const variables = listTemplateVariables(template);
  const missing = variables.filter((v) => values[v.key] === undefined || values[v.key] === null).map((v) => v.key);
  if (missing.length > 0) throw new TemplateRenderError(missing);
  const value = (key: string) => normalizeParameterText(String(values[key]));
  const named = template.parameterFormat === "NAMED";
  const textParameter = (name: string, text: string): SendParameter => (named ? { type: "text", parameter_name: name, text } : { type: "text", text });

  const components: SendComponent[] = [];
  const header = findComponent(template.components, "HEADER");
  const media = headerMediaFormat(header);
  if (media) {
    const link = String(values[`header.${media}`]).trim();
    components.push({ type: "header", parameters: [{ type: media, [media]: { link } } as SendParameter] });
  } else {
    const names = placeholderNames(header?.text, template.parameterFormat);
    if (names.length > 0) components.push({ type: "header", parameters: names.map((n) => textParameter(n, value(`header.${n}`))) });
  }

  const body = findComponent(template.components, "BODY");
  const bodyNames = placeholderNames(body?.text, template.parameterFormat);
  if (bodyNames.length > 0) components.push({ type: "body", parameters: bodyNames.map((n) => textParameter(n, value(`body.${n}`))) });

  for (const component of asComponents(template.components)) {
    if (String(component.type ?? "").toUpperCase() !== "BUTTONS") continue;
    (component.buttons ?? []).forEach((button, index) => {
      if (!isUrlButtonWithVariable(button)) return;
      const names = placeholderNames(button.url, template.parameterFormat);
      components.push({
        type: "button",
        sub_type: "url",
        index: String(index),
        parameters: names.map((n) => textParameter(n, encodeURIComponent(value(`button.${index}.${n}`)))),
      });
    });
  }

  const preview = previewTemplate(template, values);
  const text = [preview.header?.kind === "text" ? preview.header.text : null, preview.body, preview.footer]
    .filter((part): part is string => Boolean(part))
    .join("\n");
  return { text, components };
}

export interface TemplatePreview {
  header: { kind: "text"; text: string } | { kind: "media"; format: "image" | "video" | "document"; link: string | null } | null;
  body: string;
  footer: string | null;
  buttons: { type: string; text: string; url?: string }[];
}

/**
 * The parts of a message as WhatsApp shows them. Variables without a value keep their `{{…}}`
 * placeholder, so the builder can preview a half-mapped template.
 */
export function previewTemplate(template: TemplateLike, values: Record<string, string | undefined>): TemplatePreview {
  const fill = (prefix: string) => (name: string) => {
    const raw = values[`${prefix}${name}`];
    return raw === undefined || raw === null ? null : normalizeParameterText(String(raw));
  };
  const headerComponent = findComponent(template.components, "HEADER");
  const media = headerMediaFormat(headerComponent);
  let header: TemplatePreview["header"] = null;
  if (media) header = { kind: "media", format: media, link: values[`header.${media}`] ?? null };
  else if (headerComponent?.text) header = { kind: "text", text: fillPlaceholders(headerComponent.text, fill("header.")) };

  const body = fillPlaceholders(findComponent(template.components, "BODY")?.text ?? "", fill("body."));
  const footer = findComponent(template.components, "FOOTER")?.text ?? null;

  const buttons: TemplatePreview["buttons"] = [];
  for (const component of asComponents(template.components)) {
    if (String(component.type ?? "").toUpperCase() !== "BUTTONS") continue;
    (component.buttons ?? []).forEach((button, index) => {
      const type = String(button.type ?? "").toUpperCase();
      const url = button.url
        ? fillPlaceholders(button.url, (name) => {
            const raw = fill(`button.${index}.`)(name);
            return raw === null ? null : encodeURIComponent(raw);
          })
        : undefined;
      buttons.push({ type, text: button.text ?? "", ...(url ? { url } : {}) });
    });
  }
  return { header, body, footer, buttons };
}
