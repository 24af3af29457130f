// Retargeting: the contacts of a finished bulk campaign with a given outcome become the audience of a
// new draft (same template, mapping and rate), frozen as `audience.contactIds` at this moment.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { recordAudit, SYSTEM_ACTOR, type AuditActor } from "@/lib/audit/service";
import { getCampaign, type CampaignView } from "@/lib/campaigns/service";
import { newId } from "@/lib/crypto/random";
import { conflict, validationFailed } from "@/lib/http/errors";
import { loadBulkCampaignRow } from "./launch";
import type { RetargetAudience } from "./schemas";

/** Which bulk messages each retarget audience picks (by stored status). */
export const RETARGET_STATUSES: Record<RetargetAudience, string[]> = {
  // 131049 (Meta's per-user marketing limit) and every other failure.
  failed: ["failed"],
  // Left, never arrived.
  not_delivered: ["sent", "failed"],
  // Never read, whether or not it arrived.
  not_read: ["sent", "delivered", "failed"],
};

const LABEL: Record<RetargetAudience, string> = { failed: "failed", not_delivered: "not delivered", not_read: "not read" };

export async function retargetBulkCampaign(
  db: Executor,
  workspaceId: string,
  id: string,
  input: { audience: RetargetAudience; name?: string },
  options: { actor?: AuditActor } = {},
): Promise<CampaignView> {
  const source = await loadBulkCampaignRow(db, workspaceId, id);
  if (source.status !== "completed" && source.status !== "cancelled") {
    throw conflict(`A ${source.status} campaign cannot be retargeted yet; wait until it is completed or cancel it.`, "invalid_status_transition");
  }
  const statuses = RETARGET_STATUSES[input.audience];
  const newCampaignId = newId("cmp");
  const name = (input.name ?? `${source.name} — ${LABEL[input.audience]}`).slice(0, 100);
  return db.transaction(async (tx) => {
    const [created] = await queryRows<{ contacts: number | string }>(
      tx,
      sql`with picked as (
          select coalesce(jsonb_agg(distinct m.contact_id), '[]'::jsonb) as ids, count(distinct m.contact_id) as n
          from messages m
          where m.campaign_id = ${source.id} and m.source = 'bulk' and m.contact_id is not null
            and m.status in (${sql.join(statuses.map((s) => sql`${s}`), sql`, `)})
        ),
        inserted as (
          insert into campaigns (id, workspace_id, name, kind, status, message_config, template_id, audience, send_rate_per_second)
          select ${newCampaignId}, ${workspaceId}, ${name}, 'bulk', 'draft', ${JSON.stringify(source.messageConfig)}::jsonb, ${source.templateId},
            jsonb_build_object('listIds', '[]'::jsonb, 'segmentIds', '[]'::jsonb, 'contactIds', picked.ids), ${source.sendRatePerSecond}::int
          from picked where picked.n > 0
          returning 1
        )
        select (select n from picked)::int as contacts, (select count(*) from inserted)::int as inserted`,
    );
    const count = Number(created?.contacts ?? 0);
    if (count === 0) {
      throw validationFailed([{ path: "audience", code: "audience_empty", message: `No contact of this campaign is ${LABEL[input.audience]}.` }]);
    }
    await recordAudit(tx, {
      workspaceId,
      actor: options.actor ?? SYSTEM_ACTOR,
      action: "campaign.retargeted",
      targetType: "campaign",
      targetId: newCampaignId,
      metadata: { name, from: source.id, audience: input.audience, contacts: count },
    });
    return getCampaign(tx, workspaceId, newCampaignId);
  });
}
