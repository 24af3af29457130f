// Which variables a template needs: header text or media, body, and URL-button suffixes.
import {
  MEDIA_HEADER_FORMATS,
  asComponents,
  findComponent,
  type ParameterFormat,
  type RawComponent,
  type TemplateLike,
  type TemplateVariable,
} from "./types";

const PLACEHOLDER = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

/** Placeholder names in the order the send request needs them (numeric order when positional). */
export function placeholderNames(text: string | undefined, format: ParameterFormat): string[] {
  if (!text) return [];
  const names: string[] = [];
  for (const match of text.matchAll(PLACEHOLDER)) {
    const name = match[1];
    if (name && !names.includes(name)) names.push(name);
  }
  if (format === "POSITIONAL") names.sort((a, b) => Number(a) - Number(b) || a.localeCompare(b));
  return names;
}

/** Replaces `{{name}}` placeholders; `replace` returns null to leave a placeholder as it is. */
export function fillPlaceholders(text: string, replace: (name: string) => string | null): string {
  return text.replace(PLACEHOLDER, (whole, name: string) => replace(name) ?? whole);
}

export function headerMediaFormat(header: RawComponent | undefined): "image" | "video" | "document" | null {
  const format = String(header?.format ?? "").toUpperCase();
  return (MEDIA_HEADER_FORMATS as readonly string[]).includes(format) ? (format.toLowerCase() as "image" | "video" | "document") : null;
}

export function isUrlButtonWithVariable(button: { type?: string; url?: string }): boolean {
  return String(button.type ?? "").toUpperCase() === "URL" && placeholderNames(button.url, "NAMED").length > 0;
}

/** Every variable of a template, keyed `header.<name>`, `body.<name>`, `button.<index>.<name>`. */
export function listTemplateVariables(template: TemplateLike): TemplateVariable[] {
  const format = template.parameterFormat;
  const variables: TemplateVariable[] = [];

  const header = findComponent(template.components, "HEADER");
  const media = headerMediaFormat(header);
  if (media) {
    variables.push({ key: `header.${media}`, component: "header", name: media, media: true, example: header?.example?.header_handle?.[0] });
  } else if (header && String(header.format ?? "TEXT").toUpperCase() === "TEXT") {
    placeholderNames(header.text, format).forEach((name, index) => {
      variables.push({ key: `header.${name}`, component: "header", name, example: exampleFor(header, "header", format, name, index) });
    });
  }

  const body = findComponent(template.components, "BODY");
  placeholderNames(body?.text, format).forEach((name, index) => {
    variables.push({ key: `body.${name}`, component: "body", name, example: body ? exampleFor(body, "body", format, name, index) : undefined });
  });

  for (const component of asComponents(template.components)) {
    if (String(component.type ?? "").toUpperCase() !== "BUTTONS") continue;
    (component.buttons ?? []).forEach((button, buttonIndex) => {
      if (!isUrlButtonWithVariable(button)) return;
      for (const name of placeholderNames(button.url, format)) {
        variables.push({
          key: `button.${buttonIndex}.${name}`,
          component: "button",
          name,
          buttonIndex,
          example: urlSuffixExample(button.url ?? "", button.example),
        });
      }
    });
  }
  return variables;
}

function exampleFor(component: RawComponent, kind: "header" | "body", format: ParameterFormat, name: string, index: number): string | undefined {
  const example = component.example;
  if (!example) return undefined;
  if (format === "NAMED") {
    const list = kind === "header" ? example.header_text_named_params : example.body_text_named_params;
    return list?.find((p) => p.param_name === name)?.example;
  }
  const position = Number(name) - 1;
  const values = kind === "header" ? example.header_text : example.body_text?.[0];
  return values?.[Number.isInteger(position) && position >= 0 ? position : index];
}

/** Meta's URL-button example is the full URL; the variable is the part after the fixed prefix. */
function urlSuffixExample(url: string, example: string[] | string | undefined): string | undefined {
  const full = Array.isArray(example) ? example[0] : example;
  if (!full) return undefined;
  const prefix = url.split("{{")[0] ?? "";
  return full.startsWith(prefix) ? full.slice(prefix.length) : full;
}

/** Human label for a variable key, e.g. "Body {{1}}", "Header image", "Button 1 link suffix {{1}}". */
export function describeVariable(variable: TemplateVariable): string {
  if (variable.component === "header") {
    return variable.media ? `Header ${variable.name} link` : `Header {{${variable.name}}}`;
  }
  if (variable.component === "body") return `Body {{${variable.name}}}`;
  return `Button ${(variable.buttonIndex ?? 0) + 1} link ending {{${variable.name}}}`;
}
