// Template review outcomes, from wherever they come: WhatsApp's `message_template_status_update`
// webhook, and the sandbox's simulated review. `applyTemplateStatus` is the one place a template's
// status and its reason change after it was stored.
import { and, eq, isNull, like, lte, or, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { templates } from "@/db/schema";
import { sandboxTemplateReviewMs, sandboxTemplateVerdict, type TemplateStatusChange } from "@/lib/channels";

/** Statuses that stop a template from sending until WhatsApp (or the user, by editing it) clears them. */
export const BLOCKING_TEMPLATE_STATUSES = ["PAUSED", "DISABLED"] as const;

export function isBlockingTemplateStatus(status: string): boolean {
  return (BLOCKING_TEMPLATE_STATUSES as readonly string[]).includes(status.toUpperCase());
}

/** Why a template that is not approved cannot send, in words (banners, launch checks, refused sends). */
export function templateBlockReason(template: { name: string; status: string; statusReason?: string | null }): string | null {
  const status = template.status.toUpperCase();
  if (status === "APPROVED") return null;
  const why = template.statusReason ? ` ${template.statusReason}` : "";
  switch (status) {
    case "PAUSED":
      return `WhatsApp paused the template “${template.name}” for low quality: nothing is sent with it until WhatsApp lifts the pause.${why}`;
    case "DISABLED":
      return `WhatsApp disabled the template “${template.name}”: it can no longer send. Write a new template and use it instead.${why}`;
    case "REJECTED":
      return `WhatsApp rejected the template “${template.name}”.${why}`;
    case "PENDING":
      return `The template “${template.name}” is waiting for WhatsApp's review.`;
    default:
      return `The template “${template.name}” is ${status.toLowerCase()}: only approved templates can send.`;
  }
}

/**
 * Applies a review decision to the workspace's template of `account` it names (by the provider's
 * id, else by name and language). Approval clears the reason. Returns the rows changed.
 */
export async function applyTemplateStatus(db: Executor, workspaceId: string, account: string, change: TemplateStatusChange, now = new Date()): Promise<number> {
  const status = change.status.toUpperCase();
  const which = change.externalId
    ? eq(templates.externalId, change.externalId)
    : change.name && change.language
      ? and(eq(templates.name, change.name), eq(templates.language, change.language))
      : undefined;
  if (!which) return 0;
  const changed = await db
    .update(templates)
    .set({ status, statusReason: status === "APPROVED" ? null : change.reason, updatedAt: now })
    .where(and(eq(templates.workspaceId, workspaceId), eq(templates.account, account), which))
    .returning({ id: templates.id });
  return changed.length;
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
    settled += await applyTemplateStatus(db, workspaceId, "sandbox", { externalId: row.externalId, name: row.name, language: row.language, ...verdict }, now);
  }
  return settled;
}
