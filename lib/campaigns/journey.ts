// The journey document: the steps a trigger campaign takes after its trigger, as a typed, versioned
// graph (steps with ids, each naming the step that follows). Shared by the builder (browser), the
// campaigns API and the runner; `checkJourney` holds the rules that need the whole graph.
import { z } from "zod";
import { identifierSchema } from "@/lib/contacts/identifiers";
import { messageConfigSchema } from "./message-config";

export const JOURNEY_SCHEMA_VERSION = 1;
export const MAX_JOURNEY_STEPS = 50;
export const MAX_BRANCH_PATHS = 5;
export const MAX_CONDITIONS = 10;
export const MAX_EXIT_EVENTS = 10;
/** Waits and timeouts: at most a year. */
export const MAX_WAIT_SECONDS = 365 * 24 * 3600;

const TIME = /^([01]\d|2[0-3]):[0-5]\d$/;
export const STEP_ID_PATTERN = /^[a-z][a-z0-9_-]{0,39}$/;

const stepIdSchema = z.string().regex(STEP_ID_PATTERN, "A step id: a lowercase letter, then letters, digits, - or _ (at most 40).");
const nextSchema = stepIdSchema.nullable().meta({ description: "The step that follows; null ends the run here." });
const seconds = (what: string) =>
  z
    .number()
    .int("Use whole seconds.")
    .min(1, `${what} must be at least 1 second.`)
    .max(MAX_WAIT_SECONDS, `${what} must be at most a year (${MAX_WAIT_SECONDS} seconds).`);
const eventNameSchema = z
  .string()
  .trim()
  .regex(/^[A-Za-z0-9][A-Za-z0-9_.:-]{0,99}$/, "An event name: letters, digits, _ . : - (at most 100), starting with a letter or digit.");
const campaignIdSchema = z.string().regex(/^cmp_[A-Za-z0-9]{1,64}$/, "Not a campaign id.");
const listIdSchema = z.string().regex(/^lst_[A-Za-z0-9]{1,64}$/, "Not a list id.");

/** Something that happens to a contact, outside the journey: an event sent to the API, or a trigger accepted by another campaign. */
export const externalEventSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("event"), name: eventNameSchema }).strict(),
  z.object({ kind: z.literal("campaign"), campaignId: campaignIdSchema }).strict(),
]);
export type ExternalEvent = z.output<typeof externalEventSchema>;

export const waitSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("duration"), seconds: seconds("A wait") }).strict(),
  z
    .object({
      kind: z.literal("time_of_day"),
      time: z.string().regex(TIME, "Use HH:MM, 24-hour."),
      /** Null: the contact's time zone (their `timezone` attribute, else their phone number's country). */
      timeZone: z.string().min(1).max(64).nullable().default(null),
    })
    .strict(),
  z
    .object({
      kind: z.literal("date_attribute"),
      attribute: identifierSchema,
      /** Seconds before (negative) or after the date; at most a year either way. */
      offsetSeconds: z.number().int().min(-MAX_WAIT_SECONDS).max(MAX_WAIT_SECONDS).default(0),
    })
    .strict(),
]);
export type JourneyWait = z.output<typeof waitSchema>;

export const awaitedEventSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("delivered") }).strict(),
  z.object({ kind: z.literal("read") }).strict(),
  z.object({ kind: z.literal("replied") }).strict(),
  z.object({ kind: z.literal("button"), payload: z.string().min(1).max(256).nullable().default(null) }).strict(),
  ...externalEventSchema.options,
]);
export type AwaitedEvent = z.output<typeof awaitedEventSchema>;

export const CONDITION_OPERATORS = ["equals", "not_equals", "contains", "exists", "not_exists", "greater_than", "less_than"] as const;
export type ConditionOperator = (typeof CONDITION_OPERATORS)[number];

export const conditionSubjectSchema = z.discriminatedUnion("kind", [
  z.object({ kind: z.literal("attribute"), attribute: identifierSchema }).strict(),
  /** A field of the request that started the run, by its path in the trigger mapping. */
  z.object({ kind: z.literal("trigger"), field: z.string().min(1).max(200) }).strict(),
  z.object({ kind: z.literal("last_message_status") }).strict(),
  z.object({ kind: z.literal("reply_text") }).strict(),
  z.object({ kind: z.literal("button_payload") }).strict(),
]);
export type ConditionSubject = z.output<typeof conditionSubjectSchema>;

export const conditionSchema = z
  .object({
    subject: conditionSubjectSchema,
    operator: z.enum(CONDITION_OPERATORS),
    /** Compared as text (case and surrounding spaces ignored), or as numbers for greater/less than. Not used by exists / not_exists. */
    value: z.union([z.string().max(500), z.number(), z.boolean()]).nullable().default(null),
  })
  .strict();
export type JourneyCondition = z.output<typeof conditionSchema>;

const base = { id: stepIdSchema, name: z.string().trim().max(80).nullable().default(null) };

export const sendStepSchema = z
  .object({
    ...base,
    type: z.literal("send"),
    templateId: z.string().regex(/^tpl_[A-Za-z0-9]{1,64}$/, "Not a template id."),
    messageConfig: messageConfigSchema,
    /** Null: the campaign's number. */
    senderId: z.string().regex(/^snd_[A-Za-z0-9]{1,64}$/, "Not a sender id.").nullable().default(null),
    next: nextSchema,
  })
  .strict();
export const waitStepSchema = z.object({ ...base, type: z.literal("wait"), wait: waitSchema, next: nextSchema }).strict();
export const waitForEventStepSchema = z
  .object({
    ...base,
    type: z.literal("wait_for_event"),
    event: awaitedEventSchema,
    timeoutSeconds: seconds("A timeout"),
    /** When the event happens. */
    next: nextSchema,
    /** When the timeout passes first. */
    timeoutNext: nextSchema,
  })
  .strict();
export const branchStepSchema = z
  .object({
    ...base,
    type: z.literal("branch"),
    paths: z
      .array(
        z
          .object({
            name: z.string().trim().min(1).max(80),
            /** Every condition must hold. */
            conditions: z.array(conditionSchema).min(1).max(MAX_CONDITIONS),
            next: nextSchema,
          })
          .strict(),
      )
      .min(1)
      .max(MAX_BRANCH_PATHS),
    /** When no path's conditions hold. */
    elseNext: nextSchema,
  })
  .strict();
export const updateContactStepSchema = z
  .object({
    ...base,
    type: z.literal("update_contact"),
    set: z.array(z.object({ attribute: identifierSchema, value: z.union([z.string().max(1000), z.number(), z.boolean(), z.null()]) }).strict()).max(20).default([]),
    addToListIds: z.array(listIdSchema).max(10).default([]),
    removeFromListIds: z.array(listIdSchema).max(10).default([]),
    next: nextSchema,
  })
  .strict()
  .refine((step) => step.set.length + step.addToListIds.length + step.removeFromListIds.length > 0, {
    message: "Set an attribute or change a list membership.",
    path: ["set"],
  });
export const endStepSchema = z.object({ ...base, type: z.literal("end") }).strict();

export const journeyStepSchema = z.discriminatedUnion("type", [
  sendStepSchema,
  waitStepSchema,
  waitForEventStepSchema,
  branchStepSchema,
  updateContactStepSchema,
  endStepSchema,
]);
export type JourneyStep = z.output<typeof journeyStepSchema>;
export type JourneyStepInput = z.input<typeof journeyStepSchema>;
export type JourneyStepType = JourneyStep["type"];
export type SendStep = z.output<typeof sendStepSchema>;

export const REENTRY_RULES = ["once", "once_per_period", "every_time", "if_not_active"] as const;
export const reentrySchema = z
  .object({
    rule: z.enum(REENTRY_RULES).meta({
      description: "`once`: a contact enters once ever; `once_per_period`: at most once per `periodDays`; `every_time`: each trigger starts a run; `if_not_active`: only while not already in it.",
    }),
    periodDays: z.number().int().min(1).max(365).nullable().default(null),
  })
  .strict()
  .refine((r) => (r.rule === "once_per_period") === (r.periodDays !== null), {
    message: "`periodDays` is set exactly for `once_per_period`.",
    path: ["periodDays"],
  });

export const goalSchema = z.discriminatedUnion("kind", [
  ...externalEventSchema.options,
  z.object({ kind: z.literal("attribute"), attribute: identifierSchema, value: z.union([z.string().max(500), z.number(), z.boolean()]).nullable().default(null) }).strict(),
]);
export type JourneyGoal = z.output<typeof goalSchema>;

export const journeySchema = z
  .object({
    schemaVersion: z.literal(JOURNEY_SCHEMA_VERSION).default(JOURNEY_SCHEMA_VERSION),
    firstStepId: stepIdSchema,
    steps: z.array(journeyStepSchema).min(1, "A journey has at least one step.").max(MAX_JOURNEY_STEPS, `At most ${MAX_JOURNEY_STEPS} steps.`),
    /** Any of these for the contact ends their run at once. */
    exitEvents: z.array(externalEventSchema).max(MAX_EXIT_EVENTS).default([]),
    /** Event names (`POST /api/v1/events`) that start a run, besides the campaign's own trigger. */
    entryEvents: z.array(eventNameSchema).max(MAX_EXIT_EVENTS).default([]),
    reentry: reentrySchema.default({ rule: "if_not_active", periodDays: null }),
    /** A conversion: the run counts as converted when it happens while the run is going or within a week after. */
    goal: goalSchema.nullable().default(null),
  })
  .strict()
  .meta({ id: "Journey", description: "The steps after the trigger: a graph of steps by id, starting at `firstStepId`." });
export type Journey = z.output<typeof journeySchema>;
export type JourneyInput = z.input<typeof journeySchema>;

export interface JourneyIssue {
  path: (string | number)[];
  code: string;
  message: string;
}

/** The steps a step may go to, in the order the builder shows them. */
export function nextStepIds(step: JourneyStep): (string | null)[] {
  switch (step.type) {
    case "end":
      return [];
    case "branch":
      return [...step.paths.map((p) => p.next), step.elseNext];
    case "wait_for_event":
      return [step.next, step.timeoutNext];
    default:
      return [step.next];
  }
}

export function externalEventToken(event: ExternalEvent): string {
  return event.kind === "event" ? `event:${event.name}` : `campaign:${event.campaignId}`;
}

/**
 * The rules that need the whole graph: unique ids, every `next` names a step, the first step
 * exists, no cycles, no unreachable steps, branches only on trigger fields the campaign maps.
 * `mappedFields`: the request field paths of the campaign's trigger mapping.
 */
export function checkJourney(journey: Journey, context: { mappedFields: readonly string[]; campaignId?: string }): JourneyIssue[] {
  const issues: JourneyIssue[] = [];
  const byId = new Map<string, number>();
  journey.steps.forEach((step, index) => {
    if (byId.has(step.id)) issues.push({ path: ["steps", index, "id"], code: "duplicate_step", message: `Two steps have the id "${step.id}".` });
    else byId.set(step.id, index);
  });
  if (!byId.has(journey.firstStepId)) {
    issues.push({ path: ["firstStepId"], code: "unknown_step", message: `No step has the id "${journey.firstStepId}".` });
  }
  journey.steps.forEach((step, index) => {
    nextStepIds(step).forEach((next) => {
      if (next !== null && !byId.has(next)) issues.push({ path: ["steps", index], code: "unknown_step", message: `Step "${step.id}" goes to "${next}", which does not exist.` });
    });
    if (step.type === "branch") {
      step.paths.forEach((path, p) =>
        path.conditions.forEach((condition, c) => {
          if (condition.subject.kind === "trigger" && !context.mappedFields.includes(condition.subject.field)) {
            issues.push({
              path: ["steps", index, "paths", p, "conditions", c, "subject", "field"],
              code: "unmapped_field",
              message: `The trigger does not map the field "${condition.subject.field}"; map it on the trigger node or branch on another field.`,
            });
          }
          if (!["exists", "not_exists"].includes(condition.operator) && condition.value === null) {
            issues.push({ path: ["steps", index, "paths", p, "conditions", c, "value"], code: "missing_value", message: "Give the value to compare with." });
          }
        }),
      );
    }
  });
  for (const [where, events] of [["exitEvents", journey.exitEvents], ["goal", journey.goal && journey.goal.kind !== "attribute" ? [journey.goal] : []]] as const) {
    events.forEach((event, index) => {
      if (event.kind === "campaign" && event.campaignId === context.campaignId) {
        issues.push({ path: where === "goal" ? ["goal"] : [where, index], code: "own_trigger", message: "A journey cannot exit on (or convert by) its own trigger: every entry would end it." });
      }
    });
  }
  if (issues.length > 0 || !byId.has(journey.firstStepId)) return issues;

  // Depth-first from the first step: a step met again on the current path is a cycle.
  const state = new Map<string, "open" | "done">();
  const visit = (id: string): void => {
    state.set(id, "open");
    const index = byId.get(id)!;
    for (const next of nextStepIds(journey.steps[index]!)) {
      if (next === null) continue;
      const seen = state.get(next);
      if (seen === "open") {
        issues.push({ path: ["steps", index], code: "cycle", message: `Step "${id}" goes back to "${next}": a journey cannot loop.` });
      } else if (seen === undefined) {
        visit(next);
      }
    }
    state.set(id, "done");
  };
  visit(journey.firstStepId);
  journey.steps.forEach((step, index) => {
    if (!state.has(step.id)) issues.push({ path: ["steps", index], code: "unreachable_step", message: `No path reaches step "${step.id}".` });
  });
  return issues;
}

export function stepById(journey: Journey, id: string | null): JourneyStep | null {
  if (id === null) return null;
  return journey.steps.find((s) => s.id === id) ?? null;
}

/** Reads a stored document leniently: what does not parse is no journey. */
export function parseStoredJourney(value: unknown): Journey | null {
  if (value === null || value === undefined) return null;
  const parsed = journeySchema.safeParse(value);
  return parsed.success ? parsed.data : null;
}

/** An event's name as `POST /api/v1/events` takes it (the rule exit, entry and awaited events use). */
export const journeyEventNameSchema = eventNameSchema;
