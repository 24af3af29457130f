// The campaign builder's pure logic: form values from a campaign, template variable mapping,
// the trigger mapping as the example body and preview see it, and the REST API's PATCH body.
import type { FieldError } from "@/lib/http/errors";
import { attributeText } from "@/lib/templates/resolve";
import type { TemplateVariable } from "@/lib/templates/types";
import type { z } from "zod";
import { journeySchema, parseStoredJourney, type Journey } from "./journey";
import {
  campaignEditorSchema,
  isIdentifier,
  PHONE_ATTRIBUTE,
  type CampaignEditorInput,
  type CampaignEditorValues,
  type MessageConfig,
  type TriggerConfig,
  type UpdateCampaignInput,
  updateRuleOf,
} from "./schemas";
import type { DeploymentDetails } from "./deployment";
import type { CampaignView } from "./service";
import { canonicalFieldPath, isFieldPath } from "./field-path";
import { NO_SEND_POLICY, type SendPolicy } from "./send-policy";

/**
 * The trigger builder's schema: the campaign's, plus the steps after its trigger (absent: the
 * campaign sends its one message and its journey is left as stored; null: the journey is removed).
 */
export const builderEditorSchema = campaignEditorSchema.extend({
  // The form holds whole documents (every default filled in), so it reads and writes the parsed shape.
  journey: (journeySchema as unknown as z.ZodType<Journey, Journey>).nullable().optional(),
});

/** The builder form's values (schema input: what the fields hold while editing). */
export type EditorFormValues = Omit<CampaignEditorInput, "journey"> & { journey?: Journey | null };
export type EditorTrigger = EditorFormValues["triggerConfig"];
export type EditorVariable = EditorFormValues["messageConfig"]["variables"][number];

/** The parts of a campaign the form edits. */
export interface EditableCampaign {
  name: string;
  triggerConfig: TriggerConfig;
  templateId: string | null;
  messageConfig: MessageConfig;
  respectOptOut?: boolean;
  sendPolicy?: SendPolicy;
  /** Trigger campaigns: the journey document as stored (read leniently). */
  journey?: unknown;
}

/** What the variable mapping needs to know about a template. */
export interface TemplateWithVariables {
  id: string;
  variables: TemplateVariable[];
}

/** Empty inputs and selects mean "no value" (`null`), not an empty string. */
export const nullIfEmpty = (value: unknown) => (value === "" || value === undefined ? null : value);

/** The attribute a template variable most likely wants, from its name; null when unsure. */
export function guessAttribute(variable: TemplateVariable, attributes: string[]): string | null {
  if (/^\d+$/.test(variable.name)) return null;
  if (attributes.includes(variable.name)) return variable.name;
  if (/^(first_?name|customer_?name)$/i.test(variable.name) && attributes.includes("name")) return "name";
  return null;
}

/** One mapping row per template variable, keeping what was already mapped for the same key. */
export function alignVariables(
  template: Pick<TemplateWithVariables, "variables"> | undefined,
  current: EditorVariable[],
  attributes: string[],
): EditorVariable[] {
  if (!template) return [];
  const byKey = new Map(current.map((v) => [v.key, v]));
  return template.variables.map((variable) => {
    const existing = byKey.get(variable.key);
    if (existing) return { key: variable.key, attribute: existing.attribute ?? null, fallback: existing.fallback ?? null };
    return { key: variable.key, attribute: guessAttribute(variable, attributes), fallback: null };
  });
}

/**
 * Whether the trigger builder edits the campaign's draft revision (revision.ts) rather than the
 * campaign: it is active, or paused with pending edits (the trigger kind's `edits.intoRevision`,
 * read from the campaign as the API shows it).
 */
export function editsDraftRevision(campaign: Pick<CampaignView, "status" | "draftRevision">): boolean {
  return campaign.status === "active" || (campaign.status === "paused" && Boolean(campaign.draftRevision));
}

/** What the builder's form shows: the pending revision when there is one, else the campaign. */
export function editedConfig(campaign: CampaignView): EditableCampaign {
  const revision = campaign.draftRevision;
  if (!revision) return campaign;
  // A revision that does not carry a journey edits the campaign's own.
  const journey = (revision as { journey?: unknown }).journey;
  return journey === undefined ? { ...(revision as EditableCampaign), journey: (campaign as EditableCampaign).journey } : revision;
}

/** The form's values for a campaign (copies, so editing never mutates the campaign). */
export function toFormValues(campaign: EditableCampaign, templates: TemplateWithVariables[], attributes: string[]): EditorFormValues {
  const template = templates.find((t) => t.id === campaign.templateId);
  return {
    name: campaign.name,
    triggerConfig: {
      phoneField: campaign.triggerConfig.phoneField,
      phoneFallbacks: [...campaign.triggerConfig.phoneFallbacks],
      countryField: campaign.triggerConfig.countryField,
      // The rule in effect is shown (and saved) even for a field stored before rules existed.
      fields: campaign.triggerConfig.fields.map((f) => ({ ...f, fallbacks: [...f.fallbacks], update: updateRuleOf(f) })),
      example: campaign.triggerConfig.example,
    },
    templateId: campaign.templateId,
    messageConfig: { variables: template ? alignVariables(template, campaign.messageConfig.variables, attributes) : [] },
    respectOptOut: campaign.respectOptOut ?? true,
    sendPolicy: structuredClone(campaign.sendPolicy ?? NO_SEND_POLICY),
    ...journeyValue(campaign.journey),
  };
}

/** A campaign without a journey leaves the member out, so its saves never name one. */
function journeyValue(stored: unknown): { journey?: Journey } {
  const journey = parseStoredJourney(stored);
  return journey ? { journey: structuredClone(journey) } : {};
}

/** `triggerConfig.fields[0].field` → `triggerConfig.fields.0.field` (react-hook-form paths). */
export function formPath(path: string): string {
  return path.replace(/\[(\d+)\]/g, ".$1");
}

/** The trigger mapping with half-typed rows left out (for the example body and the preview). */
export function usableTrigger(trigger: EditorTrigger | undefined): TriggerConfig {
  const phoneField = trigger?.phoneField && isFieldPath(trigger.phoneField) ? trigger.phoneField : "phone";
  const phone = canonicalFieldPath(phoneField);
  const paths = (list: string[] | undefined) => (list ?? []).filter((path) => path && isFieldPath(path));
  return {
    phoneField,
    phoneFallbacks: paths(trigger?.phoneFallbacks),
    countryField: trigger?.countryField && isFieldPath(trigger.countryField) ? trigger.countryField : null,
    fields: (trigger?.fields ?? [])
      .filter((f) => f.field && isFieldPath(f.field) && canonicalFieldPath(f.field) !== phone)
      .map((f) => ({ ...f, fallbacks: paths(f.fallbacks) })),
    example: trigger?.example ?? null,
  };
}

/** Attributes a template variable can use: those the trigger writes (phone first), then the other stored ones. */
export function attributeOptions(trigger: EditorTrigger | undefined, knownAttributes: string[]) {
  const fromTrigger = [PHONE_ATTRIBUTE, ...(trigger?.fields ?? []).map((f) => f.attribute).filter((a) => a && isIdentifier(a))];
  const stored = knownAttributes.filter((a) => !fromTrigger.includes(a));
  return { fromTrigger: [...new Set(fromTrigger)], stored };
}

/** Attributes every accepted trigger request has a value for: the phone and the required fields. */
export function alwaysSentAttributes(trigger: EditorTrigger | undefined): Set<string> {
  return new Set([PHONE_ATTRIBUTE, ...(trigger?.fields ?? []).filter((f) => f.required).map((f) => f.attribute)]);
}

/** True when a mapped variable can end up without a value: optional or stored attribute, no fallback. */
export function mayBeEmpty(mapping: Partial<EditorVariable> | undefined, alwaysSent: Set<string>): boolean {
  return Boolean(mapping?.attribute && !alwaysSent.has(mapping.attribute) && !mapping.fallback?.trim());
}

/** Deploy checks of the message node: the template's, each variable's (by key), and the rest. */
export function splitMessageChecks(checks: FieldError[]) {
  const prefix = "message.variables.";
  return {
    template: checks.find((c) => c.path === "message.template"),
    variables: new Map(checks.filter((c) => c.path.startsWith(prefix)).map((c) => [c.path.slice(prefix.length), c])),
    others: checks.filter((c) => c.path !== "message.template" && !c.path.startsWith(prefix)),
  };
}

/**
 * The preview's value for each variable key: the attribute's text, else the fallback, else
 * `[attribute]` as a placeholder; undefined when nothing is mapped.
 */
export function previewValues(
  mappings: (Partial<EditorVariable> | undefined)[] | undefined,
  attributes: Record<string, unknown>,
): Record<string, string | undefined> {
  const filled: Record<string, string | undefined> = {};
  for (const mapping of mappings ?? []) {
    if (!mapping?.key) continue;
    const fromAttribute = mapping.attribute ? attributeText(attributes[mapping.attribute]) : null;
    const fallback = mapping.fallback && mapping.fallback.trim() !== "" ? mapping.fallback : null;
    filled[mapping.key] = fromAttribute ?? fallback ?? (mapping.attribute ? `[${mapping.attribute}]` : undefined);
  }
  return filled;
}

/**
 * The body of `PATCH /api/v1/campaigns/{id}`: exactly the members the update schema declares,
 * since the REST API refuses unknown ones.
 */
export function campaignUpdateBody(values: CampaignEditorValues & { journey?: Journey | null }, version: number): UpdateCampaignInput & { journey?: Journey | null } {
  return {
    name: values.name,
    triggerConfig: {
      phoneField: values.triggerConfig.phoneField,
      phoneFallbacks: values.triggerConfig.phoneFallbacks,
      countryField: values.triggerConfig.countryField,
      fields: values.triggerConfig.fields.map(({ field, fallbacks, attribute, type, required }) => ({ field, fallbacks, attribute, type, required })),
      example: values.triggerConfig.example,
    },
    templateId: values.templateId,
    messageConfig: { variables: values.messageConfig.variables.map(({ key, attribute, fallback }) => ({ key, attribute, fallback })) },
    ...(values.respectOptOut !== undefined ? { respectOptOut: values.respectOptOut } : {}),
    ...(values.sendPolicy !== undefined ? { sendPolicy: values.sendPolicy } : {}),
    ...(values.journey !== undefined ? { journey: values.journey } : {}),
    version,
  };
}

/** A campaign as `/api/v1` answers it: the campaign itself, with its deployment details inside. */
export interface CampaignResponse extends CampaignView {
  deployment: DeploymentDetails | null;
}

/** The builder keeps the campaign and its deployment details apart. */
export function splitCampaignResponse(response: CampaignResponse): { campaign: CampaignView; deployment: DeploymentDetails | null } {
  const { deployment, ...campaign } = response;
  return { campaign, deployment };
}
