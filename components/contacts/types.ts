// Shapes of the /api/v1 contacts, lists, segments and imports responses as the pages read them.

export type AttributeType = "string" | "number" | "boolean" | "date";

export interface AttributeDefinition {
  key: string;
  type: AttributeType;
}

export type ConsentStatus = "subscribed" | "unsubscribed" | "unknown";
export type ConsentSource = "import" | "form" | "api" | "keyword" | "button" | "manual";

export interface ContactConsent {
  status: ConsentStatus;
  source: ConsentSource | null;
  updatedAt: string | null;
  optedOut: boolean;
  optedOutAt: string | null;
  method: "manual" | "import" | "api" | "keyword" | null;
  detail: string | null;
}

export interface ContactListRef {
  id: string;
  name: string;
}

export interface Contact {
  id: string;
  phone: string;
  name: string | null;
  attributes: Record<string, unknown>;
  consent: ContactConsent;
  lists: ContactListRef[];
  lastMessageStatus: string | null;
  createdAt: string;
  updatedAt: string;
}

export interface ContactList {
  id: string;
  name: string;
  contactCount: number;
  createdAt: string;
}

export type SegmentCondition =
  | { field: "attribute"; key: string; op: AttributeOp; value?: string | number | boolean; matchCase?: boolean }
  | { field: "list"; op: "in" | "not_in"; listId: string }
  | { field: "opted_out"; value: boolean }
  | { field: "consent"; op: "equals" | "not_equals"; value: ConsentStatus }
  | { field: "created_at"; op: "before" | "after"; value: string }
  | { field: "last_message_status"; op: "equals" | "not_equals"; value: string };

export type AttributeOp = "equals" | "not_equals" | "contains" | "starts_with" | "is_set" | "is_not_set" | "gt" | "gte" | "lt" | "lte" | "before" | "after";

export interface SegmentFilter {
  match: "all" | "any";
  conditions: SegmentCondition[];
}

export interface Segment {
  id: string;
  name: string;
  filter: SegmentFilter;
  contactCount: number;
  createdAt: string;
  updatedAt?: string;
}

export type ImportStatus = "awaiting_file" | "processing" | "completed" | "failed";

export interface ContactImport {
  id: string;
  fileName: string;
  status: ImportStatus;
  rowsRead: number;
  totalRows?: number | null;
  created: number;
  updated: number;
  unchanged: number;
  duplicates: number;
  invalid: number;
  listId?: string | null;
  error?: string | null;
  createdAt: string;
  /** When the file was stored and its merge began. */
  startedAt?: string | null;
  finishedAt?: string | null;
}

export interface Page<T> {
  data: T[];
  nextCursor: string | null;
}

export type ColumnTarget =
  | { type: "phone" }
  | { type: "name" }
  | { type: "attribute"; key: string; attributeType: AttributeType }
  | { type: "consent"; values: Record<string, ConsentStatus> }
  | { type: "opted_out" }
  | { type: "skip" };
