// A journey campaign's trigger request (lib/journeys): each validated item upserts its contact and
// enters a run at the journey's first step, in one statement with the idempotency claim; the runs'
// steps send (the campaign's own template is not used). Answered per item as a `journey_run`.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { updateRuleOf } from "@/lib/campaigns/schemas";
import { newId } from "@/lib/crypto/random";
import { ApiError, validationFailed } from "@/lib/http/errors";
import { enterRuns } from "@/lib/journeys/enter";
import { loadJourneyVersion } from "@/lib/journeys/versions";
import { contactUpserts } from "@/lib/outbox/enqueue";
import { messageSkips } from "@/lib/campaigns/frequency-cap";
import { compiledCampaignConfig } from "./campaign-config";
import type { TriggerContextRow } from "./context";
import { claimKeySql, type IdempotencyKey } from "./idempotency";
import { validateTriggerItems } from "./validation";

/** What the accepted response lists for each item of a journey campaign's request. */
export interface AcceptedRun {
  id: string;
  object: "journey_run";
  /** `skipped`: no run (the contact opted out, or the journey's re-entry rule refuses them). */
  status: "active" | "skipped";
  campaignId: string;
  phone: string;
  createdAt: string;
  error?: { code: string; reason: string };
}

export const runLocation = (runId: string) => `/api/v1/journey-runs/${runId}`;

export interface JourneyTriggerInput {
  workspaceId: string;
  campaign: NonNullable<TriggerContextRow["campaign"]>;
  context: TriggerContextRow;
  items: Record<string, unknown>[];
  isBatch: boolean;
  dryRun: boolean;
  idempotencyKey: IdempotencyKey | null;
  requestHash: () => string;
}

export type JourneyTriggerResult =
  | { kind: "dry_run"; body: unknown }
  | { kind: "accepted"; body: unknown; answers: AcceptedRun[] }
  /** The idempotency claim was lost to a concurrent request. */
  | { kind: "claim_lost" };

export async function enterJourneyFromTrigger(db: Executor, input: JourneyTriggerInput): Promise<JourneyTriggerResult> {
  const { campaign } = input;
  if (!input.context.sender) throw new ApiError("campaign_not_sendable", "The workspace has no sender configured. Nothing was sent.");
  const journey = campaign.journey_version > 0 ? await loadJourneyVersion(db, campaign.id, Number(campaign.journey_version)) : null;
  if (!journey) throw new ApiError("campaign_not_sendable", "The campaign's journey has not been published. Deploy it again. Nothing was sent.");

  const { triggerConfig, itemSchema } = compiledCampaignConfig(campaign);
  const validated = validateTriggerItems(triggerConfig, input.items, input.isBatch, itemSchema);
  if (!validated.ok) throw validationFailed(validated.errors);

  if (input.dryRun) {
    const data = validated.items.map((item) => ({ status: "valid", campaignId: campaign.id, phone: item.phone, attributes: item.attributes }));
    return { kind: "dry_run", body: input.isBatch ? { dryRun: true, data } : { dryRun: true, ...data[0] } };
  }

  const stored = new Map(input.context.contacts.map((contact) => [contact.phone, contact]));
  const createdAt = new Date().toISOString();
  // A contact who opted out gets no run (the cap applies when a send step sends).
  const skips = messageSkips(validated.items.map((item) => item.phone), { stored, respectOptOut: campaign.respect_opt_out });
  const entries = validated.items.map((item, index) => {
    const skip = skips[index];
    const fields = Object.fromEntries([
      [triggerConfig.phoneField, item.phone],
      ...triggerConfig.fields.filter((f) => f.attribute in item.attributes).map((f) => [f.field, item.attributes[f.attribute]]),
    ]);
    const answer: AcceptedRun = {
      id: newId("run"),
      object: "journey_run",
      status: skip ? "skipped" : "active",
      campaignId: campaign.id,
      phone: item.phone,
      createdAt,
      ...(skip ? { error: { code: skip.errorCode, reason: skip.errorReason } } : {}),
    };
    return { id: answer.id, phone: item.phone, context: { attributes: item.attributes, fields }, answer: answer as unknown as Record<string, unknown>, enter: !skip };
  });
  const result = await enterRuns(db, {
    workspaceId: input.workspaceId,
    campaignId: campaign.id,
    version: Number(campaign.journey_version),
    journey,
    entry: "trigger",
    contacts: contactUpserts(
      validated.items.map((item, i) => ({ ...item, skipped: !entries[i]!.enter })),
      Object.fromEntries(triggerConfig.fields.map((f) => [f.attribute, updateRuleOf(f)])),
    ),
    fillWhenEmpty: triggerConfig.fields.filter((f) => updateRuleOf(f) === "when_empty").map((f) => f.attribute),
    entries,
    event: input.context.has_journeys ? { token: `campaign:${campaign.id}`, reason: `The campaign ${campaign.id} was triggered for the contact.` } : null,
    claim: input.idempotencyKey
      ? (answers) =>
          claimKeySql({
            campaignId: campaign.id,
            key: input.idempotencyKey!,
            requestHash: input.requestHash(),
            status: 202,
            body: input.isBatch ? sql`jsonb_build_object('data', ${answers})` : sql`(${answers}) -> 0`,
          })
      : null,
  });
  if (!result.claimed) return { kind: "claim_lost" };
  const answers = result.answers as unknown as AcceptedRun[];
  return { kind: "accepted", answers, body: input.isBatch ? { data: answers } : answers[0]! };
}
