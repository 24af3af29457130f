// Composing one templated message for one contact: the attributes it renders from, and the
// template rendered with the campaign's variable mapping (attribute, else fallback).
// Shared by the trigger and the bulk sender; no database access.
import { NAME_ATTRIBUTE, PHONE_ATTRIBUTE, type MessageConfig } from "@/lib/campaigns/schemas";
import { renderTemplate, resolveVariableValues, type ParameterFormat, type SendComponent } from "@/lib/templates";

/** The template columns rendering needs. */
export interface ComposeTemplate {
  name: string;
  language: string;
  parameterFormat: ParameterFormat;
  components: unknown[];
}

/** The Cloud API `template` object of a message (stored in `payload.template`). */
export interface MessageTemplatePayload {
  name: string;
  language: { code: string };
  components: SendComponent[];
}

/** A contact as stored, for merging with attributes that just arrived. */
export interface StoredContactAttributes {
  name: string | null;
  attributes: Record<string, unknown> | null;
}

/**
 * Attributes a message renders from: the stored contact's (its name as `name`), overridden by
 * the incoming ones, with the phone number always the one being sent to.
 */
export function contactAttributes(phone: string, stored: StoredContactAttributes | undefined, incoming: Record<string, unknown>): Record<string, unknown> {
  return {
    ...(stored?.attributes ?? {}),
    ...(stored?.name ? { [NAME_ATTRIBUTE]: stored.name } : {}),
    ...incoming,
    [PHONE_ATTRIBUTE]: phone,
  };
}

export type ComposedMessage =
  | { ok: true; text: string; template: MessageTemplatePayload }
  /** Template variables with neither an attribute value nor a fallback, with the attribute each is mapped to. */
  | { ok: false; missing: { key: string; attribute: string | null }[] };

/** Renders the campaign's template for one contact's attributes, falling back per variable. */
export function composeMessage(template: ComposeTemplate, messageConfig: MessageConfig, attributes: Record<string, unknown>): ComposedMessage {
  const values = resolveVariableValues(messageConfig, template, attributes);
  if (!values.ok) {
    return {
      ok: false,
      missing: values.missing.map((key) => ({ key, attribute: messageConfig.variables.find((v) => v.key === key)?.attribute ?? null })),
    };
  }
  const output = renderTemplate(template, values.values);
  return { ok: true, text: output.text, template: templatePayload(template, output.components) };
}

export function templatePayload(template: Pick<ComposeTemplate, "name" | "language">, components: SendComponent[]): MessageTemplatePayload {
  return { name: template.name, language: { code: template.language }, components };
}
