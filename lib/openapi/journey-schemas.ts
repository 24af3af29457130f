// The journeys API's response shapes (lib/journeys): runs with their history, events, and a
// journey's numbers per step.
import { z } from "zod";
import { journeyRunStatuses } from "@/db/schema";
import { EXAMPLE_IDS, nextCursorSchema, opaqueId, phone, timestamp } from "./schemas";

const STEP_TYPES = ["send", "wait", "wait_for_event", "branch", "update_contact", "end"] as const;
const count = (description: string) => z.number().int().min(0).meta({ description });

export const journeyRunSchema = z.object({
  id: opaqueId("run", "run_4LkJ8hGf2dSa6PoI"),
  object: z.literal("journey_run"),
  status: z.enum(journeyRunStatuses).meta({
    description: "`active` (its next step is due at `dueAt`), `waiting` (for an event until `dueAt`), then `completed`, `exited` (an exit event), `ended` (by a member or the API) or `failed`.",
  }),
  campaignId: opaqueId("cmp", EXAMPLE_IDS.campaign),
  version: z.number().int().meta({ description: "The journey version it follows (a new version applies to new runs)." }),
  contactId: opaqueId("ctc", EXAMPLE_IDS.contact),
  phone,
  stepId: z.string().nullable().meta({ description: "The step it runs next or waits in; null once it is over.", example: "pause" }),
  dueAt: timestamp("When its step is due, or its wait times out; null once it is over.").nullable(),
  entry: z.string().meta({ description: "What started it: `trigger`, `event` or `test`.", example: "trigger" }),
  exitReason: z.string().nullable().meta({ description: "Why it ended early (the exit event, who ended it)." }),
  error: z.string().nullable().meta({ description: "Why a step failed (`failed` runs)." }),
  convertedAt: timestamp("When the contact reached the journey's goal.").nullable(),
  createdAt: timestamp("When it entered."),
  endedAt: timestamp().nullable(),
});

export const journeyRunStepSchema = z.object({
  stepId: z.string().meta({ example: "remind" }),
  stepName: z.string().nullable().meta({ description: "The step's name in the run's journey version.", example: "Reminder" }),
  stepType: z.enum(STEP_TYPES).nullable(),
  outcome: z.string().meta({
    description: "`sent`, `skipped`, `waited`, `event`, `timeout`, `path:<n>`, `else`, `updated`, `completed`, or how it ended there: `ended`, `exited`, `failed`.",
    example: "sent",
  }),
  messageId: z.string().nullable().meta({ description: "The message a send step queued." }),
  detail: z.string().nullable(),
  at: timestamp(),
});

export const journeyRunWithHistorySchema = journeyRunSchema.extend({
  history: z.array(journeyRunStepSchema).meta({ description: "The steps it took, in order." }),
});

export const journeyRunPageSchema = z.object({ data: z.array(journeyRunSchema), nextCursor: nextCursorSchema });

export const journeyEventResponseSchema = z.object({
  id: z.string().meta({ description: "The event's id.", example: "evn_6YhN2bGv8cFx4DsA" }),
  object: z.literal("event"),
  name: z.string().meta({ example: "order_placed" }),
  contactId: z.string().nullable().meta({ description: "Null when no contact of the workspace has this phone number or id: the event is recorded, no run starts or ends." }),
  runsStarted: count("Runs the event started (journeys that enter on it)."),
  runsEnded: count("Runs it ended (journeys that exit on it)."),
  createdAt: timestamp(),
});

export const journeyStepStatsSchema = z.object({
  stepId: z.string().meta({ example: "remind" }),
  entered: count("Runs that reached the step (took it, or are at it now)."),
  waiting: count("Runs at the step now."),
  completed: count("Runs that went on from it."),
  exited: count("Runs an exit event ended at it."),
  failed: count("Runs that failed at it."),
  sent: count("Messages it queued."),
});

export const journeyStatsSchema = z.object({
  version: z.number().int().meta({ description: "The journey version new runs enter (0: none published)." }),
  steps: z.array(journeyStepStatsSchema).meta({ description: "The published journey's steps in order, then steps only older versions have." }),
  totals: z.object({
    entered: count("Runs (test runs left out)."),
    active: count("Runs with a step due."),
    waiting: count("Runs waiting for an event."),
    completed: count("Runs that reached their last step."),
    exited: count("Runs an exit event ended."),
    ended: count("Runs a member or the API ended."),
    failed: count("Runs a step could not run for."),
    converted: count("Runs that reached the goal."),
    conversionRate: z.number().min(0).max(1).meta({ description: "`converted / entered` (0 with no runs).", example: 0.125 }),
    medianSecondsToConvert: z.number().int().nullable().meta({ description: "From entering to converting; null with no conversion.", example: 5400 }),
  }),
});
