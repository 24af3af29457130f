// The first-run checklist of the home page: the four steps from a new workspace to a sent
// campaign, each checked from the workspace's data (never from clicks on the checklist itself).
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { SANDBOX_TEMPLATES } from "@/lib/templates/sandbox";

/** The cookie that hides the checklist for one workspace in this browser. */
export function checklistCookieName(workspaceId: string): string {
  return `ss_checklist_hidden_${workspaceId}`;
}

export type FirstRunStepId = "sender" | "contacts" | "template" | "campaign";

export interface FirstRunStep {
  id: FirstRunStepId;
  done: boolean;
}

export interface FirstRunChecklist {
  steps: FirstRunStep[];
  /** Every step is done. */
  complete: boolean;
  /** Only the built-in sandbox sends for the workspace (no WhatsApp number connected yet). */
  sandboxOnly: boolean;
}

/**
 * - sender: a WhatsApp number is connected, or the sandbox has sent a message (the user chose to
 *   stay in the sandbox for now);
 * - contacts: the workspace has a contact;
 * - template: a template other than the demo ones exists (written here or synced from WhatsApp);
 * - campaign: a campaign message (not a test send) has left.
 * One statement.
 */
export async function firstRunChecklist(db: Executor, workspaceId: string): Promise<FirstRunChecklist> {
  const demoNames = SANDBOX_TEMPLATES.map((t) => t.name);
  const [row] = await queryRows<{ whatsapp: boolean; sandbox_sent: boolean; contacts: boolean; template: boolean; campaign: boolean }>(
    db,
    sql`select
      exists (select 1 from senders where workspace_id = ${workspaceId} and provider <> 'sandbox') as whatsapp,
      exists (select 1 from messages m join senders s on s.id = m.sender_id
        where m.workspace_id = ${workspaceId} and s.provider = 'sandbox' and m.sent_at is not null) as sandbox_sent,
      exists (select 1 from contacts where workspace_id = ${workspaceId}) as contacts,
      exists (select 1 from templates where workspace_id = ${workspaceId}
        and not (name = any(${`{${demoNames.join(",")}}`}::text[]) and external_id like 'sandbox:%')) as template,
      exists (select 1 from messages where workspace_id = ${workspaceId} and source <> 'test' and sent_at is not null) as campaign`,
  );
  const done = {
    sender: Boolean(row?.whatsapp || row?.sandbox_sent),
    contacts: Boolean(row?.contacts),
    template: Boolean(row?.template),
    campaign: Boolean(row?.campaign),
  };
  const steps = (["sender", "contacts", "template", "campaign"] as const).map((id) => ({ id, done: done[id] }));
  return { steps, complete: steps.every((s) => s.done), sandboxOnly: !row?.whatsapp };
}
