// The segment filter: what the segment builder edits, the API accepts and segments.ts compiles to
// SQL. Plain zod with no database imports, so the browser can validate a filter as it is built.
import { z } from "zod";
import type { ConsentStatus } from "@/db/schema";
import { identifierSchema, isIsoDate } from "@/lib/contacts/identifiers";
import { isStorableText, STORABLE_TEXT_MESSAGE } from "@/lib/http/storable-text";
import { LOG_STATUSES } from "@/lib/statuses/messages";

export { isIsoDate };

export const MAX_SEGMENT_CONDITIONS = 50;
export const MAX_AUDIENCE_NAME_LENGTH = 100;

export const ATTRIBUTE_OPS = ["equals", "not_equals", "contains", "starts_with", "is_set", "is_not_set", "gt", "gte", "lt", "lte", "before", "after"] as const;
type AttributeOp = (typeof ATTRIBUTE_OPS)[number];

const NUMBER_OPS: readonly AttributeOp[] = ["gt", "gte", "lt", "lte"];
/** Operators that compare text: they ignore case and surrounding white space unless `matchCase` is true. */
export const TEXT_OPS: readonly AttributeOp[] = ["equals", "not_equals", "contains", "starts_with"];
const DATE_OPS: readonly AttributeOp[] = ["before", "after"];

const textValue = z.string().max(1024, "At most 1,024 characters.").refine(isStorableText, { message: STORABLE_TEXT_MESSAGE });
const isoDateOrTime = z
  .string()
  .refine((value) => isIsoDate(value) || (z.iso.datetime({ offset: true }).safeParse(value).success && !Number.isNaN(Date.parse(value))), {
    message: "Expected a date (YYYY-MM-DD) or an ISO 8601 date-time.",
  });

const attributeCondition = z
  .object({
    field: z.literal("attribute"),
    key: identifierSchema,
    op: z.enum(ATTRIBUTE_OPS),
    value: z.union([textValue, z.number().refine(Number.isFinite, "Expected a finite number."), z.boolean()]).optional(),
    matchCase: z
      .boolean()
      .optional()
      .meta({ description: "Text operators (`equals`, `not_equals`, `contains`, `starts_with`) ignore letter case and surrounding white space unless this is `true`." }),
  })
  .superRefine((condition, ctx) => {
    const { op, value } = condition;
    if (condition.matchCase !== undefined && !TEXT_OPS.includes(op)) ctx.addIssue({ code: "custom", path: ["matchCase"], message: `"matchCase" applies to text operators only, not "${op}".` });
    const fail = (message: string) => ctx.addIssue({ code: "custom", path: ["value"], message });
    if (op === "is_set" || op === "is_not_set") {
      if (value !== undefined) fail(`"${op}" takes no value.`);
    } else if (value === undefined) fail(`"${op}" needs a value.`);
    else if ((op === "contains" || op === "starts_with") && (typeof value !== "string" || value.trim() === "")) fail(`"${op}" needs some text.`);
    else if (NUMBER_OPS.includes(op) && typeof value !== "number") fail(`"${op}" compares numbers; send a number.`);
    else if (DATE_OPS.includes(op) && (typeof value !== "string" || !isIsoDate(value))) fail(`"${op}" compares dates; send YYYY-MM-DD.`);
  });

const listCondition = z.object({ field: z.literal("list"), op: z.enum(["in", "not_in"]), listId: z.string().min(1).max(64) });
const optedOutCondition = z.object({ field: z.literal("opted_out"), value: z.boolean() });
/** db/schema's consentStatuses, restated so the browser needs no database module; the record keeps the two in step. */
const CONSENT_STATUS_SET: Record<ConsentStatus, true> = { subscribed: true, unknown: true, unsubscribed: true };
const consentStatuses = Object.keys(CONSENT_STATUS_SET) as [ConsentStatus, ...ConsentStatus[]];

const consentCondition = z
  .object({
    field: z.literal("consent"),
    op: z.enum(["equals", "not_equals"]),
    value: z.enum(consentStatuses),
  })
  .meta({ description: "The contact's consent status (`subscribed`, `unsubscribed` or `unknown`) is, or is not, this one." });
const createdAtCondition = z.object({ field: z.literal("created_at"), op: z.enum(["before", "after"]), value: isoDateOrTime });
const lastMessageCondition = z.object({
  field: z.literal("last_message_status"),
  op: z.enum(["equals", "not_equals"]),
  value: z.enum(LOG_STATUSES),
});

export const segmentConditionSchema = z.discriminatedUnion("field", [attributeCondition, listCondition, optedOutCondition, consentCondition, createdAtCondition, lastMessageCondition]);
export type SegmentCondition = z.output<typeof segmentConditionSchema>;

export const segmentFilterSchema = z
  .object({
    match: z.enum(["all", "any"]),
    conditions: z.array(segmentConditionSchema).max(MAX_SEGMENT_CONDITIONS, `At most ${MAX_SEGMENT_CONDITIONS} conditions.`),
  })
  .meta({
    description: "`all` (every condition holds) or `any` (at least one does). No conditions selects every contact.",
    example: { match: "all", conditions: [{ field: "attribute", key: "city", op: "equals", value: "Lisbon" }] },
  });
export type SegmentFilter = z.output<typeof segmentFilterSchema>;

const segmentName = z.string().trim().min(1, "Give the segment a name.").max(MAX_AUDIENCE_NAME_LENGTH).refine(isStorableText, { message: STORABLE_TEXT_MESSAGE });

export const createSegmentSchema = z.object({ name: segmentName, filter: segmentFilterSchema });
export const updateSegmentSchema = z.object({ name: segmentName.optional(), filter: segmentFilterSchema.optional() });
export const countSegmentSchema = z.object({ filter: segmentFilterSchema });

