// Rendering bulk messages when the dispatcher claims them. The launch snapshot stores one bare
// `queued` row per contact (no text, `payload = {}`); the text and the Cloud API payload are
// rendered here, for the few messages a claim takes (the campaign's send rate), with the same code
// the trigger uses (`composeMessage`): the contact's mapped attribute, else the fallback, flattened.
import { inArray, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { campaigns, contacts } from "@/db/schema";
import { parseStoredMessageConfig } from "@/lib/campaigns/schemas";
import { OPTED_OUT_CODE, optOutReason } from "@/lib/contacts/opt-out";
import { composeMessage, contactAttributes } from "@/lib/outbox/compose";
import { getTemplateRow } from "@/lib/templates/service";

export const VARIABLES_MISSING_CODE = "variables_missing";
export const VARIABLES_MISSING_REASON = "A template variable had no value for this contact and no fallback.";
/** The same skip when the campaign leaves such contacts out ("Leave out contacts with empty blanks"). */
export const LEFT_OUT_REASON = "Left out: a template variable had no value for this contact and no fallback.";
export const TEMPLATE_MISSING_CODE = "template_missing";
const TEMPLATE_MISSING_REASON = "The campaign's template was deleted before this message was sent.";

/** The claimed row's columns rendering reads and writes. */
export interface BulkRowToRender {
  id: string;
  workspaceId: string;
  campaignId: string;
  contactId: string | null;
  phoneNumber: string;
  payload: Record<string, unknown>;
  lease: Date;
}

/** True for a bulk row the snapshot stored bare (rendered when it is claimed). */
export function needsRendering(row: { payload: Record<string, unknown> | null | undefined }): boolean {
  return !row.payload || row.payload.template === undefined;
}

/** A claimed row settled without a send, with why. */
interface Settled {
  id: string;
  lease: string;
  code: string;
  reason: string;
}

export interface RenderOutcome {
  /** Rendered rows, with their payload set (also stored). */
  rendered: Map<string, Record<string, unknown>>;
  /** Rows that cannot be sent: stored as skipped (a variable has no value now) or failed (no template); leave them out. */
  dropped: Set<string>;
}

/**
 * Renders the bare rows of one campaign claim and stores text and payload on each (fenced on the
 * claim's lease). A row whose contact opted out since the launch is `skipped` (`opted_out`, with
 * how and when), one whose contact now lacks a variable with no fallback `skipped`
 * (`variables_missing`), as the snapshot would have stored it; one whose template is gone `failed`.
 */
export async function renderClaimedBulkMessages(db: Executor, rows: BulkRowToRender[], now: Date): Promise<RenderOutcome> {
  const outcome: RenderOutcome = { rendered: new Map(), dropped: new Set() };
  const bare = rows.filter(needsRendering);
  if (bare.length === 0) return outcome;
  const campaignIds = [...new Set(bare.map((r) => r.campaignId))];
  const campaignRows = await db
    .select({ id: campaigns.id, workspaceId: campaigns.workspaceId, templateId: campaigns.templateId, messageConfig: campaigns.messageConfig })
    .from(campaigns)
    .where(inArray(campaigns.id, campaignIds));
  const contactIds = [...new Set(bare.map((r) => r.contactId).filter((id): id is string => id !== null))];
  const contactRows =
    contactIds.length === 0
      ? []
      : await db
          .select({
            id: contacts.id,
            name: contacts.name,
            attributes: contacts.attributes,
            optedOutAt: contacts.optedOutAt,
            optOutMethod: contacts.optOutMethod,
            optOutDetail: contacts.optOutDetail,
          })
          .from(contacts)
          .where(inArray(contacts.id, contactIds));
  const contactById = new Map(contactRows.map((c) => [c.id, c]));

  const updates: { id: string; lease: string; text: string; payload: Record<string, unknown> }[] = [];
  const skipped: Settled[] = [];
  const failed: Settled[] = [];
  for (const campaign of campaignRows) {
    const template = campaign.templateId ? await getTemplateRow(db, campaign.workspaceId, campaign.templateId) : null;
    const messageConfig = parseStoredMessageConfig(campaign.messageConfig);
    for (const row of bare) {
      if (row.campaignId !== campaign.id) continue;
      const lease = row.lease.toISOString();
      if (!template) {
        failed.push({ id: row.id, lease, code: TEMPLATE_MISSING_CODE, reason: TEMPLATE_MISSING_REASON });
        continue;
      }
      const contact = row.contactId ? contactById.get(row.contactId) : undefined;
      if (contact?.optedOutAt) {
        const reason = optOutReason({ optedOutAt: contact.optedOutAt, method: contact.optOutMethod, detail: contact.optOutDetail });
        skipped.push({ id: row.id, lease, code: OPTED_OUT_CODE, reason });
        continue;
      }
      const attributes = contactAttributes(row.phoneNumber, contact ? { name: contact.name, attributes: contact.attributes as Record<string, unknown> | null } : undefined, {});
      const composed = composeMessage(template, messageConfig, attributes);
      if (!composed.ok) {
        skipped.push({ id: row.id, lease, code: VARIABLES_MISSING_CODE, reason: VARIABLES_MISSING_REASON });
        continue;
      }
      const payload = { template: composed.template } as unknown as Record<string, unknown>;
      updates.push({ id: row.id, lease, text: composed.text, payload });
    }
  }
  // A campaign row deleted under the claim: its messages went with it (cascade), nothing to write.

  const at = now.toISOString();
  if (updates.length > 0) {
    const stored = await queryRows<{ id: string }>(
      db,
      sql`update messages m set rendered_text = v.text, payload = v.payload, updated_at = ${at}::timestamptz
        from jsonb_to_recordset(${JSON.stringify(updates)}::jsonb) as v(id text, lease timestamptz, text text, payload jsonb)
        where m.id = v.id and m.status = 'sending' and m.locked_until = v.lease
        returning m.id`,
    );
    const written = new Set(stored.map((r) => r.id));
    for (const update of updates) {
      if (written.has(update.id)) outcome.rendered.set(update.id, update.payload);
      else outcome.dropped.add(update.id);
    }
  }
  const finish = async (list: Settled[], status: "skipped" | "failed") => {
    if (list.length === 0) return;
    await queryRows(
      db,
      sql`update messages m set status = ${status}, error_code = v.code, error_reason = v.reason, locked_until = null,
          failed_at = ${status === "failed" ? sql`${at}::timestamptz` : sql`m.failed_at`}, updated_at = ${at}::timestamptz
        from jsonb_to_recordset(${JSON.stringify(list)}::jsonb) as v(id text, lease timestamptz, code text, reason text)
        where m.id = v.id and m.status = 'sending' and m.locked_until = v.lease`,
    );
    for (const item of list) outcome.dropped.add(item.id);
  };
  await finish(skipped, "skipped");
  await finish(failed, "failed");
  return outcome;
}
