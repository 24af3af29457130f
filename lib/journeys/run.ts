// What a step sees of its run while the runner holds the row, and what it answers.
import type { Executor } from "@/db";
import type { Journey } from "@/lib/campaigns/journey";

export interface RunRow {
  id: string;
  workspace_id: string;
  campaign_id: string;
  version: number;
  contact_id: string;
  phone_number: string;
  status: "active" | "waiting";
  step_id: string | null;
  wait_token: string | null;
  context: RunContext;
  last_message_id: string | null;
  last_reply: { text: string | null; payload: string | null } | null;
  entry: string;
  time_scale: number;
  converted_at: string | null;
}

/** What started the run: the trigger item's mapped attributes and field values, or an event's properties. */
export interface RunContext {
  attributes?: Record<string, unknown>;
  /** Request field path → its value. */
  fields?: Record<string, unknown>;
  properties?: Record<string, unknown>;
}

/** A waiting run's token while a plain wait (a timer) holds it; never woken by an event. */
export const TIMER_TOKEN = "timer";

export interface StepContext {
  tx: Executor;
  run: RunRow;
  journey: Journey;
  now: Date;
}

/** A step's history row. */
export interface History {
  stepId: string;
  outcome: string;
  messageId?: string | null;
  detail?: string | null;
}

export type StepResult =
  /** Done: continue at `next` (null: the run completes). */
  | { kind: "next"; history: History; next: string | null; lastMessageId?: string; lastReply?: RunRow["last_reply"]; converted?: boolean }
  /** The run waits in this step until `dueAt` (a timer, or an event's timeout). */
  | { kind: "wait"; dueAt: Date; waitToken: string; history?: History }
  /** The step cannot run: the run fails with this error. */
  | { kind: "fail"; error: string };

/** A wait of `seconds` as the run lives it (a test run's waits are compressed). */
export function scaledDue(now: Date, seconds: number, timeScale: number): Date {
  return new Date(now.getTime() + (seconds * 1000) / Math.max(1, timeScale));
}
