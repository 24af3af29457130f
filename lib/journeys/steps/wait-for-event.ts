// A wait for an event, with a timeout: the run waits with a token naming what it waits for (see
// ../wake.ts). Something already true when the wait starts (the message was read) continues at once.
import { sql } from "drizzle-orm";
import { queryRows } from "@/db/rows";
import { externalEventToken, type JourneyStep } from "@/lib/campaigns/journey";
import { scaledDue, type StepContext, type StepResult } from "../run";

type WaitForEventStep = Extract<JourneyStep, { type: "wait_for_event" }>;

/** The token of what the step waits for; null when there is nothing to wait on (no message sent yet). */
export function waitTokenFor(step: WaitForEventStep, run: { contact_id: string; last_message_id: string | null }): string | null {
  const event = step.event;
  switch (event.kind) {
    case "delivered":
    case "read":
    case "replied":
      return run.last_message_id ? `message:${run.last_message_id}:${event.kind}` : null;
    case "button":
      return event.payload === null ? `button:${run.contact_id}` : `button:${run.contact_id}:${event.payload}`;
    default:
      return externalEventToken(event);
  }
}

/** The message's state, when the awaited status or reply already happened. */
async function alreadyHappened(context: StepContext, messageId: string, kind: string): Promise<{ reply: { text: string | null; payload: string | null } | null } | null> {
  const [row] = await queryRows<{ happened: boolean; reply: { text: string | null; payload: string | null } | null }>(
    context.tx,
    sql`select case ${kind}
          when 'delivered' then m.delivered_at is not null or m.read_at is not null or m.replied_at is not null
          when 'read' then m.read_at is not null or m.replied_at is not null
          else m.replied_at is not null end as happened,
        (select jsonb_build_object('text', im.text, 'payload', im.payload) from inbound_messages im
          where ${kind} = 'replied' and im.contact_id = m.contact_id and im.created_at >= m.created_at
          order by im.created_at desc limit 1) as reply
      from messages m where m.id = ${messageId}`,
  );
  return row?.happened ? { reply: row.reply } : null;
}

export async function runWaitForEventStep(context: StepContext, step: WaitForEventStep): Promise<StepResult> {
  const token = waitTokenFor(step, context.run);
  if (token === null) {
    return { kind: "next", history: { stepId: step.id, outcome: "timeout", detail: "No message of this run to wait on; took the timeout path." }, next: step.timeoutNext };
  }
  if (token.startsWith("message:")) {
    const [, messageId, kind] = token.split(":");
    const happened = await alreadyHappened(context, messageId!, kind!);
    if (happened) {
      return {
        kind: "next",
        history: { stepId: step.id, outcome: "event", detail: `Already ${kind} when the wait started.` },
        next: step.next,
        ...(happened.reply ? { lastReply: happened.reply } : {}),
      };
    }
  }
  return { kind: "wait", dueAt: scaledDue(context.now, step.timeoutSeconds, context.run.time_scale), waitToken: token };
}
