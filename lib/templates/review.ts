// Template review outcomes, from wherever they come: WhatsApp's `message_template_status_update`
// webhook, and the sandbox's simulated review. `applyTemplateStatus` is the one place a template's
// status and its reason change after it was stored.
import { and, eq, isNull, like, lte, or, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { templates } from "@/db/schema";
import { sandboxTemplateReviewMs, sandboxTemplateVerdict, type TemplateStatusChange } from "@/lib/channels";

import { isBlockingTemplateStatus, templateBlockReason } from "./status";

export { BLOCKING_TEMPLATE_STATUSES, isBlockingTemplateStatus, templateBlockReason } from "./status";

/**
 * Applies a review decision to the workspace's template of `account` it names (by the provider's
 * id, else by name and language). Approval clears the reason. Returns the ids of the templates changed.
 */
export async function applyTemplateStatus(db: Executor, workspaceId: string, account: string, change: TemplateStatusChange, now = new Date()): Promise<string[]> {
  const status = change.status.toUpperCase();
  const which = change.externalId
    ? eq(templates.externalId, change.externalId)
    : change.name && change.language
      ? and(eq(templates.name, change.name), eq(templates.language, change.language))
      : undefined;
  if (!which) return [];
  const changed = await db
    .update(templates)
    .set({ status, statusReason: status === "APPROVED" ? null : change.reason, updatedAt: now })
    .where(and(eq(templates.workspaceId, workspaceId), eq(templates.account, account), which))
    .returning({ id: templates.id });
  return changed.map((row) => row.id);
}

/**
 * The sandbox's reviewer: every PENDING sandbox template of the workspace submitted (or seeded) at
 * least `SANDBOX_TEMPLATE_REVIEW_MS` ago gets its verdict. Stateless: reading the templates settles them.
 */
export async function settleSandboxReviews(db: Executor, workspaceId: string, now = new Date()): Promise<number> {
  const dueBefore = new Date(now.getTime() - sandboxTemplateReviewMs());
  const due = await db
    .select({ id: templates.id, name: templates.name, language: templates.language, externalId: templates.externalId, components: templates.components })
    .from(templates)
    .where(
      and(
        eq(templates.workspaceId, workspaceId),
        eq(templates.account, "sandbox"),
        eq(templates.status, "PENDING"),
        or(lte(templates.submittedAt, dueBefore), and(isNull(templates.submittedAt), lte(templates.createdAt, dueBefore))),
        like(templates.externalId, "sandbox:%"),
      ),
    )
    .orderBy(sql`${templates.createdAt}`)
    .limit(100);
  let settled = 0;
  for (const row of due) {
    const verdict = sandboxTemplateVerdict(row);
    settled += (await applyTemplateStatus(db, workspaceId, "sandbox", { externalId: row.externalId, name: row.name, language: row.language, ...verdict }, now)).length;
  }
  return settled;
}

export interface TemplateBannerData {
  templateId: string;
  status: string;
  title: string;
  message: string;
}

/** The banner a campaign shows while WhatsApp has paused or disabled its template; null otherwise. */
export async function templateBanner(db: Executor, workspaceId: string, templateId: string | null): Promise<TemplateBannerData | null> {
  if (!templateId) return null;
  const [row] = await db
    .select({ name: templates.name, status: templates.status, statusReason: templates.statusReason })
    .from(templates)
    .where(and(eq(templates.workspaceId, workspaceId), eq(templates.id, templateId)))
    .limit(1);
  if (!row || !isBlockingTemplateStatus(row.status)) return null;
  return {
    templateId,
    status: row.status,
    title: row.status === "PAUSED" ? "The campaign's template is paused" : "The campaign's template is disabled",
    message: templateBlockReason(row) ?? "",
  };
}
