// A send step: the step's template rendered for the contact (their attributes merged with the run's),
// the campaign's send policies (opt-out, frequency cap: a `skipped` message, the run goes on; quiet
// hours: the dispatcher holds the message), queued through the one door with the run and step named.
import { sql, type SQL } from "drizzle-orm";
import { queryRows } from "@/db/rows";
import type { SendStep } from "@/lib/campaigns/journey";
import { lockAndCountCapped, messageSkips, type MessageSkip } from "@/lib/campaigns/frequency-cap";
import { frequencyCapSchema } from "@/lib/campaigns/send-policy";
import type { OptOutMethod } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { composeFor } from "@/lib/outbox/compose";
import { enqueueMessages } from "@/lib/outbox/enqueue";
import { queueTestMessages } from "@/lib/outbox/test-sends";
import type { ParameterFormat } from "@/lib/templates";
import { templateBlockReason } from "@/lib/templates/status";
import type { StepContext, StepResult } from "../run";

interface SendContextRow {
  template: { name: string; language: string; status: string; statusReason: string | null; parameterFormat: ParameterFormat; components: unknown[] } | null;
  sender: { id: string } | null;
  contact: { name: string | null; attributes: Record<string, unknown> | null; opted_out_at: string | null; opt_out_method: OptOutMethod | null; opt_out_detail: string | null } | null;
  campaign: { respect_opt_out: boolean; frequency_cap: unknown } | null;
}

/** A send step's campaign (`cmp`): its number and its send policy. */
export function sendingCte(run: { campaign_id: string; workspace_id: string }): SQL {
  return sql`cmp as (
      select c.id, c.sender_id, c.respect_opt_out, c.send_policy -> 'frequencyCap' as frequency_cap from campaigns c
      where c.id = ${run.campaign_id} and c.workspace_id = ${run.workspace_id}
    )`;
}

/** The step's template, its sender (the step's, else the campaign's, else the workspace's default) and the campaign's policy, as columns. */
export function sendingColumns(run: { workspace_id: string }, step: SendStep): SQL {
  return sql`(select jsonb_build_object('name', t.name, 'language', t.language, 'status', t.status, 'statusReason', t.status_reason,
        'parameterFormat', t.parameter_format, 'components', t.components)
      from templates t where t.id = ${step.templateId} and t.workspace_id = ${run.workspace_id}) as template,
    (select jsonb_build_object('id', s.id) from senders s
      where s.workspace_id = ${run.workspace_id}
        and ${step.senderId ? sql`s.id = ${step.senderId}` : sql`(s.id = (select cmp.sender_id from cmp) or (select cmp.sender_id from cmp) is null)`}
      order by s.is_default desc, s.created_at limit 1) as sender,
    (select jsonb_build_object('respect_opt_out', cmp.respect_opt_out, 'frequency_cap', cmp.frequency_cap) from cmp) as campaign`;
}

/** Template, sender (the step's, else the campaign's, else the workspace's default), contact and policy in one statement. */
async function loadSendContext(context: StepContext, step: SendStep): Promise<SendContextRow> {
  const { run } = context;
  const [row] = await queryRows<SendContextRow>(
    context.tx,
    sql`with ${sendingCte(run)}
      select ${sendingColumns(run, step)},
        (select jsonb_build_object('name', ct.name, 'attributes', ct.attributes, 'opted_out_at', ct.opted_out_at,
            'opt_out_method', ct.opt_out_method, 'opt_out_detail', ct.opt_out_detail)
          from contacts ct where ct.id = ${run.contact_id}) as contact`,
  );
  return row!;
}

export async function runSendStep(context: StepContext, step: SendStep): Promise<StepResult> {
  const { run } = context;
  const loaded = await loadSendContext(context, step);
  if (!loaded.template) return { kind: "fail", error: `Step "${step.id}": its template no longer exists.` };
  if (loaded.template.status !== "APPROVED") {
    return { kind: "fail", error: `Step "${step.id}": ${templateBlockReason(loaded.template) ?? `the template ${loaded.template.name} is not approved (${loaded.template.status}).`}` };
  }
  if (!loaded.sender) return { kind: "fail", error: `Step "${step.id}": ${step.senderId ? "its sender no longer exists." : "the workspace has no sender configured."}` };
  if (!loaded.contact || !loaded.campaign) return { kind: "fail", error: `Step "${step.id}": the contact or campaign no longer exists.` };

  const composed = composeFor(
    { workspaceId: run.workspace_id, campaignId: run.campaign_id, senderId: loaded.sender.id, template: loaded.template, messageConfig: step.messageConfig },
    { phone: run.phone_number, contact: loaded.contact, incoming: run.context.attributes ?? {} },
  );
  if (!composed.ok) {
    const names = composed.missing.map((m) => (m.attribute ? `${m.key} (attribute "${m.attribute}")` : m.key)).join(", ");
    return { kind: "fail", error: `Step "${step.id}": no value for the template variable ${names}.` };
  }

  const skip = await sendSkip(context, { campaign: loaded.campaign, contact: loaded.contact });

  if (run.entry === "test") {
    // A test run's messages are test sends: real, never counted, changing no contact.
    const [stored] = await queueTestMessages(context.tx, {
      workspaceId: run.workspace_id,
      campaignId: run.campaign_id,
      messages: [{ draft: composed.draft, contactId: run.contact_id, skip, journeyRunId: run.id, journeyStepId: step.id }],
    });
    return sentResult(step, stored!.id, skip);
  }
  const messageId = newId("msg");
  await enqueueMessages(context.tx, {
    workspaceId: run.workspace_id,
    campaignId: run.campaign_id,
    apiKeyId: null,
    contacts: [{ id: newId("ctc"), phone: run.phone_number, name: null, attributes: {} }],
    messages: [{ id: messageId, draft: composed.draft, skip, journeyRunId: run.id, journeyStepId: step.id }],
    createdAt: context.now,
  });
  return sentResult(step, messageId, skip);
}

/**
 * Why the step's message is stored `skipped`, or null: the contact opted out (when the campaign
 * respects opt-outs), or is over the campaign's frequency cap, counted under the cap's lock in the
 * run's transaction, which then stores the message.
 */
async function sendSkip(
  context: StepContext,
  { campaign, contact }: { campaign: NonNullable<SendContextRow["campaign"]>; contact: NonNullable<SendContextRow["contact"]> },
): Promise<MessageSkip | null> {
  const { run } = context;
  const parsed = campaign.frequency_cap ? frequencyCapSchema.safeParse(campaign.frequency_cap) : null;
  const cap = parsed?.success ? parsed.data : null;
  const phones = [run.phone_number];
  const counted = cap ? await lockAndCountCapped(context.tx, { workspaceId: run.workspace_id, campaignId: run.campaign_id, cap, phones }) : undefined;
  return messageSkips(phones, { stored: new Map([[run.phone_number, contact]]), respectOptOut: campaign.respect_opt_out, cap, counted })[0]!;
}

function sentResult(step: SendStep, messageId: string, skip: MessageSkip | null): StepResult {
  return {
    kind: "next",
    history: { stepId: step.id, outcome: skip ? "skipped" : "sent", messageId, detail: skip ? `${skip.errorCode}: ${skip.errorReason}` : null },
    next: step.next,
    lastMessageId: messageId,
  };
}
