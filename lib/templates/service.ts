// Stored templates per workspace and business account: sandbox demo templates (account `sandbox`),
// or those synced from WhatsApp Manager (account `waba:<id>`). A sender sends its account's templates.
import { and, asc, eq, inArray, like, notLike, or, isNull, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { templates, workspaces } from "@/db/schema";
import { ChannelRequestError, getChannel, type ChannelName, type ChannelSender } from "@/lib/channels";
import { newId } from "@/lib/crypto/random";
import { ApiError } from "@/lib/http/errors";
import { campaignSenderRow, isSenderConfigured, templateAccount, type SenderRow } from "@/lib/senders/service";
import { settleSandboxReviews } from "./review";
import { SANDBOX_TEMPLATES, withWorkspaceFooter } from "./sandbox";
import type { ParameterFormat, TemplateVariable } from "./types";
import { listTemplateVariables } from "./variables";

type TemplateRow = typeof templates.$inferSelect;

/** Marks demo templates so they are offered only while the sandbox sender is in use. */
export const SANDBOX_EXTERNAL_PREFIX = "sandbox:";

export interface TemplateView {
  id: string;
  name: string;
  language: string;
  category: string;
  status: string;
  /** Why WhatsApp rejected, paused or disabled it; null otherwise. */
  statusReason: string | null;
  parameterFormat: ParameterFormat;
  components: unknown[];
  variables: TemplateVariable[];
  sandbox: boolean;
  syncedAt: string | null;
  /** When it was submitted for review from this app; null for synced and demo templates. */
  submittedAt: string | null;
}

export function toTemplateView(row: TemplateRow): TemplateView {
  return {
    id: row.id,
    name: row.name,
    language: row.language,
    category: row.category,
    status: row.status,
    statusReason: row.statusReason,
    parameterFormat: row.parameterFormat,
    components: row.components,
    variables: listTemplateVariables(row),
    sandbox: isSandboxTemplate(row),
    syncedAt: row.syncedAt?.toISOString() ?? null,
    submittedAt: row.submittedAt?.toISOString() ?? null,
  };
}

export function isSandboxTemplate(row: Pick<TemplateRow, "externalId">): boolean {
  return row.externalId?.startsWith(SANDBOX_EXTERNAL_PREFIX) ?? false;
}

/** Inserts the demo templates a sandbox workspace starts with; existing rows are left as they are. */
export async function ensureSandboxTemplates(db: Executor, workspaceId: string): Promise<void> {
  const [workspace] = await db.select({ name: workspaces.name }).from(workspaces).where(eq(workspaces.id, workspaceId)).limit(1);
  await db
    .insert(templates)
    .values(
      SANDBOX_TEMPLATES.map((t) => ({
        id: newId("tpl"),
        workspaceId,
        externalId: `${SANDBOX_EXTERNAL_PREFIX}${t.name}`,
        account: "sandbox",
        name: t.name,
        language: t.language,
        category: t.category,
        status: t.status,
        parameterFormat: t.parameterFormat,
        components: workspace ? withWorkspaceFooter(t.components, workspace.name) : t.components,
      })),
    )
    .onConflictDoNothing({ target: [templates.workspaceId, templates.account, templates.name, templates.language] });
}

type SenderAccountFields = Pick<SenderRow, "provider" | "wabaId" | "workspaceId">;

/** The templates a sender can send: the demo ones for the sandbox, its business account's for a WhatsApp number. */
function senderTemplatesFilter(sender: SenderAccountFields) {
  if (sender.provider === "sandbox") return like(templates.externalId, `${SANDBOX_EXTERNAL_PREFIX}%`);
  const whatsapp = or(isNull(templates.externalId), notLike(templates.externalId, `${SANDBOX_EXTERNAL_PREFIX}%`));
  // Rows synced before templates named their account ("") stay usable.
  return and(whatsapp, inArray(templates.account, [templateAccount(sender), ""]));
}

/** Templates the sender (the workspace's default without `senderId`) can send, approved first. */
export async function listTemplates(db: Executor, workspaceId: string, options: { senderId?: string } = {}): Promise<TemplateView[]> {
  const sender = await campaignSenderRow(db, workspaceId, options.senderId);
  if (sender.provider === "sandbox") {
    await ensureSandboxTemplates(db, workspaceId);
    await settleSandboxReviews(db, workspaceId);
  }
  const rows = await db
    .select()
    .from(templates)
    .where(and(eq(templates.workspaceId, workspaceId), senderTemplatesFilter(sender)))
    .orderBy(sql`case when ${templates.status} = 'APPROVED' then 0 else 1 end`, asc(templates.name), asc(templates.language));
  return rows.map(toTemplateView);
}

export async function getTemplateRow(db: Executor, workspaceId: string, id: string): Promise<TemplateRow | null> {
  const [row] = await db
    .select()
    .from(templates)
    .where(and(eq(templates.workspaceId, workspaceId), eq(templates.id, id)))
    .limit(1);
  return row ?? null;
}

/** True when the sender can send the template: a sandbox template for the sandbox, its business account's for a WhatsApp number. */
export function templateFitsSender(row: Pick<TemplateRow, "externalId" | "account">, sender: SenderAccountFields): boolean {
  if (sender.provider === "sandbox") return isSandboxTemplate(row);
  return !isSandboxTemplate(row) && (row.account === "" || row.account === templateAccount(sender));
}

/**
 * The sender as its channel's template calls take it. A WhatsApp number needs its business account and
 * access token first; `then` names what to do again once they are there ("sync", "submit").
 */
export function templateChannelSender(sender: SenderRow, workspaceId: string, then: string): ChannelSender {
  if (sender.provider !== "sandbox" && (!isSenderConfigured(sender) || !sender.wabaId || !sender.accessTokenEncrypted)) {
    throw new ApiError("sender_not_configured", `Add your WhatsApp Business Account ID and access token in Settings → WhatsApp, then ${then} again.`);
  }
  return {
    id: sender.id,
    workspaceId,
    channel: sender.provider,
    address: sender.phoneNumberId,
    account: sender.wabaId,
    accessTokenEncrypted: sender.accessTokenEncrypted,
    throughputPerSecond: sender.throughputPerSecond,
  };
}

/** What a problem answer carries of a channel's failure: the provider's own code, subcode and words. */
export function channelFailureExtensions(error: ChannelRequestError) {
  const { code, subcode, details, kind } = error.failure;
  return { graph: { code, subcode, details, kind } };
}

export interface SyncResult {
  provider: ChannelName;
  total: number;
  approved: number;
  removed: number;
}

/**
 * Pulls every template of the sender's WhatsApp Business Account (the default sender's without
 * `senderId`) and stores it under that account: one sync serves every number of the account (the
 * sandbox re-adds its demo templates). Templates that disappeared from WhatsApp Manager are kept
 * with status DELETED so campaigns that use them fail their deploy check instead of losing their
 * template.
 */
export async function syncTemplates(db: Executor, workspaceId: string, options: { senderId?: string } = {}): Promise<SyncResult> {
  const sender = await campaignSenderRow(db, workspaceId, options.senderId);
  if (sender.provider === "sandbox") {
    await ensureSandboxTemplates(db, workspaceId);
    const list = await listTemplates(db, workspaceId, { senderId: sender.id });
    return { provider: "sandbox", total: list.length, approved: list.filter((t) => t.status === "APPROVED").length, removed: 0 };
  }
  let remote;
  try {
    remote = await getChannel(sender.provider).listTemplates(db, templateChannelSender(sender, workspaceId, "sync"));
  } catch (error) {
    if (!(error instanceof ChannelRequestError)) throw error;
    const { message, code } = error.failure;
    throw new ApiError("graph_error", `${message}${code ? ` (code ${code})` : ""}`, { extensions: channelFailureExtensions(error) });
  }
  const now = new Date();
  const account = templateAccount(sender);
  return db.transaction(async (tx) => {
    for (const t of remote) {
      await tx
        .insert(templates)
        .values({
          id: newId("tpl"),
          workspaceId,
          externalId: t.externalId,
          account,
          name: t.name,
          language: t.language,
          category: t.category,
          status: t.status,
          parameterFormat: t.parameterFormat,
          components: t.components,
          statusReason: t.statusReason,
          syncedAt: now,
        })
        .onConflictDoUpdate({
          target: [templates.workspaceId, templates.account, templates.name, templates.language],
          set: {
            externalId: t.externalId,
            category: t.category,
            status: t.status,
            parameterFormat: t.parameterFormat,
            components: t.components,
            // The list's rejection reason; without one, a reason the status webhook gave for the same
            // status (a pause, a rejection) stays, and any other status has none.
            statusReason: sql`case when ${t.statusReason}::text is not null then ${t.statusReason}::text
              when ${templates.status} = ${t.status}::text and ${t.status}::text <> 'APPROVED' then ${templates.statusReason} end`,
            syncedAt: now,
            updatedAt: now,
          },
        });
    }
    const keep = new Set(remote.map((t) => `${t.name}\u0000${t.language}`));
    const stored = await tx
      .select({ id: templates.id, name: templates.name, language: templates.language, externalId: templates.externalId })
      .from(templates)
      .where(and(eq(templates.workspaceId, workspaceId), eq(templates.account, account), senderTemplatesFilter(sender)));
    const gone = stored.filter((row) => !keep.has(`${row.name}\u0000${row.language}`)).map((row) => row.id);
    if (gone.length > 0) {
      await tx.update(templates).set({ status: "DELETED", updatedAt: now }).where(and(eq(templates.workspaceId, workspaceId), inArray(templates.id, gone)));
    }
    return { provider: "whatsapp" as const, total: remote.length, approved: remote.filter((t) => t.status === "APPROVED").length, removed: gone.length };
  });
}
