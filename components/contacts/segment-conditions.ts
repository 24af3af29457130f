// The segment builder's editable rows and their translation to the API's filter conditions.
import type { AttributeDefinition, AttributeType, ConsentStatus, SegmentCondition } from "./types";

export type ConditionField = SegmentCondition["field"];

export interface DraftCondition {
  id: number;
  field: ConditionField;
  key: string;
  op: string;
  value: string;
  listId: string;
  /** Text operators ignore case and surrounding spaces unless this is set. */
  matchCase: boolean;
}

export const FIELD_LABELS: Record<ConditionField, string> = {
  attribute: "Attribute",
  list: "List membership",
  opted_out: "Opt-out",
  consent: "Consent",
  created_at: "Created",
  last_message_status: "Last message status",
};

export const OP_LABELS: Record<string, string> = {
  equals: "is",
  not_equals: "is not",
  contains: "contains",
  starts_with: "starts with",
  is_set: "is set",
  is_not_set: "is not set",
  gt: "is greater than",
  gte: "is at least",
  lt: "is less than",
  lte: "is at most",
  before: "is before",
  after: "is after",
  in: "is in",
  not_in: "is not in",
};

const ATTRIBUTE_OPS_BY_TYPE: Record<AttributeType, string[]> = {
  string: ["equals", "not_equals", "contains", "starts_with", "is_set", "is_not_set"],
  number: ["equals", "not_equals", "gt", "gte", "lt", "lte", "is_set", "is_not_set"],
  boolean: ["equals", "is_set", "is_not_set"],
  date: ["equals", "before", "after", "is_set", "is_not_set"],
};

export function opsFor(draft: DraftCondition, definitions: AttributeDefinition[]): string[] {
  switch (draft.field) {
    case "attribute":
      return ATTRIBUTE_OPS_BY_TYPE[attributeType(draft.key, definitions)];
    case "list":
      return ["in", "not_in"];
    case "created_at":
      return ["before", "after"];
    case "last_message_status":
    case "consent":
      return ["equals", "not_equals"];
    case "opted_out":
      return [];
  }
}

export function attributeType(key: string, definitions: AttributeDefinition[]): AttributeType {
  return definitions.find((definition) => definition.key === key)?.type ?? "string";
}

let nextId = 1;
export function newDraft(field: ConditionField, definitions: AttributeDefinition[], listId = ""): DraftCondition {
  const draft: DraftCondition = { id: nextId++, field, key: definitions[0]?.key ?? "", op: "", value: "", listId, matchCase: false };
  draft.op = opsFor(draft, definitions)[0] ?? "";
  if (field === "opted_out") draft.value = "false";
  if (field === "last_message_status") draft.value = "delivered";
  if (field === "consent") draft.value = "subscribed";
  return draft;
}

export function fromCondition(condition: SegmentCondition): DraftCondition {
  const base = { id: nextId++, key: "", op: "", value: "", listId: "", matchCase: false };
  switch (condition.field) {
    case "attribute":
      return { ...base, field: "attribute", key: condition.key, op: condition.op, value: condition.value === undefined ? "" : String(condition.value), matchCase: condition.matchCase === true };
    case "list":
      return { ...base, field: "list", op: condition.op, listId: condition.listId };
    case "opted_out":
      return { ...base, field: "opted_out", value: String(condition.value) };
    case "consent":
      return { ...base, field: "consent", op: condition.op, value: condition.value };
    case "created_at":
      return { ...base, field: "created_at", op: condition.op, value: condition.value.slice(0, 10) };
    case "last_message_status":
      return { ...base, field: "last_message_status", op: condition.op, value: condition.value };
  }
}

export const CONSENT_STATUS_LABELS: Record<ConsentStatus, string> = { subscribed: "subscribed", unknown: "unknown", unsubscribed: "unsubscribed" };
const isConsentStatus = (value: string): value is ConsentStatus => Object.hasOwn(CONSENT_STATUS_LABELS, value);

export const takesValue = (op: string) => op !== "is_set" && op !== "is_not_set";

const TEXT_OPS = new Set(["equals", "not_equals", "contains", "starts_with"]);
/** Whether the row compares text, so "Match case" applies to it. */
export function comparesText(draft: DraftCondition, definitions: AttributeDefinition[]): boolean {
  return draft.field === "attribute" && TEXT_OPS.has(draft.op) && attributeType(draft.key, definitions) === "string";
}

/** The API condition, or a message saying what is missing. */
export function toCondition(draft: DraftCondition, definitions: AttributeDefinition[]): { ok: true; condition: SegmentCondition } | { ok: false; message: string } {
  switch (draft.field) {
    case "attribute": {
      if (!draft.key) return { ok: false, message: "Pick an attribute." };
      const op = draft.op as Extract<SegmentCondition, { field: "attribute" }>["op"];
      if (!takesValue(op)) return { ok: true, condition: { field: "attribute", key: draft.key, op } };
      const type = attributeType(draft.key, definitions);
      const raw = draft.value.trim();
      if (raw === "") return { ok: false, message: "Enter a value." };
      if (type === "number") {
        const n = Number(raw);
        return Number.isFinite(n) ? { ok: true, condition: { field: "attribute", key: draft.key, op, value: n } } : { ok: false, message: "Enter a number." };
      }
      if (type === "boolean") return { ok: true, condition: { field: "attribute", key: draft.key, op, value: raw === "true" } };
      if (type === "date") return { ok: true, condition: { field: "attribute", key: draft.key, op, value: raw } };
      return { ok: true, condition: { field: "attribute", key: draft.key, op, value: draft.value, ...(draft.matchCase && comparesText(draft, definitions) ? { matchCase: true } : {}) } };
    }
    case "list":
      return draft.listId ? { ok: true, condition: { field: "list", op: draft.op as "in" | "not_in", listId: draft.listId } } : { ok: false, message: "Pick a list." };
    case "opted_out":
      return { ok: true, condition: { field: "opted_out", value: draft.value === "true" } };
    case "created_at":
      return /^\d{4}-\d{2}-\d{2}$/.test(draft.value)
        ? { ok: true, condition: { field: "created_at", op: draft.op as "before" | "after", value: draft.value } }
        : { ok: false, message: "Pick a date." };
    case "last_message_status":
      return { ok: true, condition: { field: "last_message_status", op: draft.op as "equals" | "not_equals", value: draft.value } };
    case "consent":
      return isConsentStatus(draft.value)
        ? { ok: true, condition: { field: "consent", op: draft.op as "equals" | "not_equals", value: draft.value } }
        : { ok: false, message: "Pick a consent status." };
  }
}
