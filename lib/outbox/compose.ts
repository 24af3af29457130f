// Composing one templated message for one contact: which template and sender the contact gets
// (`composeFor`: today the campaign's), the attributes it renders from, and the template rendered
// with the campaign's variable mapping (attribute, else fallback).
// Shared by the trigger, the bulk sender and test sends; no database access.
import { NAME_ATTRIBUTE, PHONE_ATTRIBUTE, type MessageConfig } from "@/lib/campaigns/schemas";
import { attributeText, listTemplateVariables, renderTemplate, resolveVariableValues, type ParameterFormat, type SendComponent } from "@/lib/templates";

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

/**
 * What a campaign sends with: its template and its sender. The caller passes the campaign's sender
 * (`campaigns.sender_id`, or the workspace's default for a campaign stored before campaigns named one).
 */
export interface CampaignSending {
  workspaceId: string;
  campaignId: string;
  senderId: string;
  template: ComposeTemplate;
  messageConfig: MessageConfig;
}

/** One recipient: the phone sent to, the stored contact when there is one, attributes that just arrived. */
export interface Recipient {
  phone: string;
  contact?: StoredContactAttributes;
  incoming?: Record<string, unknown>;
}

/** A message composed for one recipient, before it is stored: the sender and template chosen for them, rendered. */
export interface OutboundDraft {
  phone: string;
  senderId: string;
  template: { name: string; language: string };
  renderedText: string;
  payload: { template: MessageTemplatePayload };
  /** What it rendered from (the stored contact's attributes merged with the incoming ones). */
  attributes: Record<string, unknown>;
}

export type ComposedDraft = { ok: true; draft: OutboundDraft } | Extract<ComposedMessage, { ok: false }>;

/**
 * The template and sender one recipient gets. Every composed message goes through this choice, so
 * a per-contact rule (a language, a number per country) is added here and nowhere else.
 */
export const chooseTemplateAndSender: (sending: CampaignSending, recipient: Recipient) => { template: ComposeTemplate; senderId: string } = (sending) => ({
  template: sending.template,
  senderId: sending.senderId,
});

/**
 * Composes one recipient's message: the template and sender chosen for them, rendered from their
 * attributes. A variable with neither a value nor a fallback refuses the message (`ok: false`),
 * or with `placeholders` (test sends of bulk campaigns) shows as `[attribute]`.
 */
export function composeFor(sending: CampaignSending, recipient: Recipient, options: { placeholders: true }): { ok: true; draft: OutboundDraft };
export function composeFor(sending: CampaignSending, recipient: Recipient, options?: { placeholders?: boolean }): ComposedDraft;
export function composeFor(sending: CampaignSending, recipient: Recipient, options: { placeholders?: boolean } = {}): ComposedDraft {
  const { template, senderId } = chooseTemplateAndSender(sending, recipient);
  const attributes = contactAttributes(recipient.phone, recipient.contact, recipient.incoming ?? {});
  const composed = options.placeholders ? composeWithPlaceholders(template, sending.messageConfig, attributes) : composeMessage(template, sending.messageConfig, attributes);
  if (!composed.ok) return composed;
  return {
    ok: true,
    draft: {
      phone: recipient.phone,
      senderId,
      template: { name: template.name, language: template.language },
      renderedText: composed.text,
      payload: { template: composed.template },
      attributes,
    },
  };
}

/** Renders every variable: attribute, else fallback, else `[attribute]` (or `[key]` when unmapped). */
function composeWithPlaceholders(template: ComposeTemplate, messageConfig: MessageConfig, attributes: Record<string, unknown>): Extract<ComposedMessage, { ok: true }> {
  const byKey = new Map(messageConfig.variables.map((v) => [v.key, v]));
  const values: Record<string, string> = {};
  for (const variable of listTemplateVariables(template)) {
    const mapping = byKey.get(variable.key);
    values[variable.key] =
      (mapping?.attribute ? attributeText(attributes[mapping.attribute]) : null) ??
      (mapping?.fallback?.trim() ? mapping.fallback : null) ??
      `[${mapping?.attribute ?? variable.key}]`;
  }
  const output = renderTemplate(template, values);
  return { ok: true, text: output.text, template: templatePayload(template, output.components) };
}
