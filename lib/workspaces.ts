import { and, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { countryCodeSchema } from "@/lib/contacts/phone";
import type { Executor } from "@/db";
import { memberships, workspaces } from "@/db/schema";
import { recordAudit, type AuditActor } from "@/lib/audit/service";
import { ApiError, notFound } from "@/lib/http/errors";
import { SANDBOX_SHOP_FOOTER } from "@/lib/templates/sandbox";
import { SANDBOX_EXTERNAL_PREFIX } from "@/lib/templates/service";

/** Who acts in a workspace: a signed-in user of the web app, or an API key of an integration. */
export type Actor =
  | { type: "user"; id: string; email: string; name: string }
  | { type: "api_key"; id: string; name: string };

export async function getWorkspace(db: Executor, workspaceId: string) {
  const [workspace] = await db.select().from(workspaces).where(eq(workspaces.id, workspaceId)).limit(1);
  return workspace ?? null;
}

export const WORKSPACE_NAME_MAX = 100;

export const renameWorkspaceSchema = z
  .object({
    name: z.string().trim().min(1, "Enter a name for the workspace.").max(WORKSPACE_NAME_MAX, `Use at most ${WORKSPACE_NAME_MAX} characters.`),
  })
  .strict();
export type RenameWorkspaceInput = z.input<typeof renameWorkspaceSchema>;

export async function isWorkspaceOwner(db: Executor, workspaceId: string, userId: string): Promise<boolean> {
  const [membership] = await db
    .select({ role: memberships.role })
    .from(memberships)
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
    .limit(1);
  return membership?.role === "owner";
}

/**
 * The demo templates are signed with the workspace's name (see lib/templates/sandbox.ts): a rename
 * re-signs those still showing the old name or the generic "Demo Shop".
 */
async function renameSandboxFooters(db: Executor, workspaceId: string, from: string, to: string): Promise<void> {
  const footer = to.slice(0, 60);
  await db.execute(sql`
    update templates set components = (
      select jsonb_agg(
        case when c->>'type' = 'FOOTER' and c->>'text' in (${from.slice(0, 60)}, ${SANDBOX_SHOP_FOOTER}) then jsonb_set(c, '{text}', to_jsonb(${footer}::text)) else c end
        order by position)
      from jsonb_array_elements(templates.components) with ordinality as e(c, position))
    where workspace_id = ${workspaceId} and external_id like ${`${SANDBOX_EXTERNAL_PREFIX}%`} and jsonb_array_length(components) > 0`);
}

/** Renames the workspace (its owner only); the audit row keeps the old and the new name. */
export async function renameWorkspace(
  db: Executor,
  workspaceId: string,
  input: RenameWorkspaceInput,
  actor: AuditActor,
): Promise<{ id: string; name: string }> {
  const { name } = renameWorkspaceSchema.parse(input);
  if (!actor.userId || !(await isWorkspaceOwner(db, workspaceId, actor.userId))) {
    throw new ApiError("owner_required", "Only the workspace's owner can rename it.");
  }
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ name: workspaces.name }).from(workspaces).where(eq(workspaces.id, workspaceId)).for("update").limit(1);
    if (!before) throw notFound("Workspace not found.");
    if (before.name === name) return { id: workspaceId, name };
    await tx.update(workspaces).set({ name }).where(eq(workspaces.id, workspaceId));
    await renameSandboxFooters(tx, workspaceId, before.name, name);
    await recordAudit(tx, { workspaceId, actor, action: "workspace.renamed", targetType: "workspace", targetId: workspaceId, metadata: { from: before.name, to: name } });
    return { id: workspaceId, name };
  });
}

/** `PUT /api/workspace/default-country`: the country numbers without a country code are read in, or null for none. */
export const defaultCountrySchema = z
  .object({
    defaultCountry: countryCodeSchema("Choose a country from the list (an ISO 3166-1 alpha-2 code in upper case, such as GB or US).").nullable(),
  })
  .strict();
export type DefaultCountryInput = z.input<typeof defaultCountrySchema>;

/**
 * The workspace's default country: where import, test send and any other phone field start. The one place that
 * decides the default; each form may pick another country for that one use.
 */
export async function getDefaultCountry(db: Executor, workspaceId: string): Promise<string | null> {
  const [row] = await db.select({ defaultCountry: workspaces.defaultCountry }).from(workspaces).where(eq(workspaces.id, workspaceId)).limit(1);
  if (!row) throw notFound("Workspace not found.");
  return row.defaultCountry;
}

/** Sets the default country (any member, as the opt-out keywords); the audit row keeps the old and the new one. */
export async function setDefaultCountry(db: Executor, workspaceId: string, input: DefaultCountryInput, actor: AuditActor): Promise<{ defaultCountry: string | null }> {
  const { defaultCountry } = defaultCountrySchema.parse(input);
  return db.transaction(async (tx) => {
    const [before] = await tx.select({ defaultCountry: workspaces.defaultCountry }).from(workspaces).where(eq(workspaces.id, workspaceId)).for("update").limit(1);
    if (!before) throw notFound("Workspace not found.");
    if (before.defaultCountry === defaultCountry) return { defaultCountry };
    await tx.update(workspaces).set({ defaultCountry }).where(eq(workspaces.id, workspaceId));
    await recordAudit(tx, {
      workspaceId,
      actor,
      action: "workspace.default_country_changed",
      targetType: "workspace",
      targetId: workspaceId,
      metadata: { from: before.defaultCountry, to: defaultCountry },
    });
    return { defaultCountry };
  });
}

export const REPLY_ATTRIBUTION_HOURS = { min: 1, max: 168, default: 72 } as const;

/** `PUT /api/workspace/inbox-settings`: the replied step's window and who sees which conversations. */
export const inboxSettingsSchema = z
  .object({
    replyAttributionHours: z
      .number({ error: "Give the window in hours: a whole number from 1 to 168." })
      .int("Give the window in whole hours, from 1 to 168.")
      .min(REPLY_ATTRIBUTION_HOURS.min, "The window is at least 1 hour.")
      .max(REPLY_ATTRIBUTION_HOURS.max, "The window is at most 168 hours (a week)."),
    inboxMembersSeeAll: z.boolean({ error: "Say whether members see every conversation: true or false." }),
    /** Sandbox demo: contacts of bulk campaigns answer (three questions and a STOP). Left out: unchanged. */
    sandboxAudienceReplies: z.boolean({ error: "Say whether the sandbox's audience answers: true or false." }).optional(),
  })
  .strict();
export type InboxSettingsInput = z.input<typeof inboxSettingsSchema>;
export type InboxSettings = Required<z.output<typeof inboxSettingsSchema>>;

const inboxSettingsColumns = {
  replyAttributionHours: workspaces.replyAttributionHours,
  inboxMembersSeeAll: workspaces.inboxMembersSeeAll,
  sandboxAudienceReplies: workspaces.sandboxAudienceReplies,
};

export async function getInboxSettings(db: Executor, workspaceId: string): Promise<InboxSettings> {
  const [row] = await db.select(inboxSettingsColumns).from(workspaces).where(eq(workspaces.id, workspaceId)).limit(1);
  if (!row) throw notFound("Workspace not found.");
  return row;
}

/**
 * Sets the inbox settings (owners and admins: the route says so). A changed window applies to
 * replies that arrive from then on; replies already attributed keep their campaign. The audit row
 * keeps what changed, old and new.
 */
export async function setInboxSettings(db: Executor, workspaceId: string, input: InboxSettingsInput, actor: AuditActor): Promise<InboxSettings> {
  const parsed = inboxSettingsSchema.parse(input);
  return db.transaction(async (tx) => {
    const [before] = await tx.select(inboxSettingsColumns).from(workspaces).where(eq(workspaces.id, workspaceId)).for("update").limit(1);
    if (!before) throw notFound("Workspace not found.");
    const next: InboxSettings = { ...parsed, sandboxAudienceReplies: parsed.sandboxAudienceReplies ?? before.sandboxAudienceReplies };
    const changed = (Object.keys(next) as (keyof InboxSettings)[]).filter((key) => before[key] !== next[key]);
    if (changed.length === 0) return next;
    await tx.update(workspaces).set(next).where(eq(workspaces.id, workspaceId));
    await recordAudit(tx, {
      workspaceId,
      actor,
      action: "workspace.inbox_settings_changed",
      targetType: "workspace",
      targetId: workspaceId,
      metadata: {
        from: Object.fromEntries(changed.map((key) => [key, before[key]])),
        to: Object.fromEntries(changed.map((key) => [key, next[key]])),
      },
    });
    return next;
  });
}
