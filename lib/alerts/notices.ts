// The notices the app shows the owners: open ones on every page until dismissed or resolved, and
// the history on Settings → Alerts.
import { and, eq, isNull, sql } from "drizzle-orm";
import { newestFirst } from "@/db/cursor";
import type { Executor } from "@/db";
import { notices } from "@/db/schema";
import { notFound } from "@/lib/http/errors";
import type { NoticeView } from "./schemas";

type NoticeRow = typeof notices.$inferSelect;

const iso = (value: Date | null) => value?.toISOString() ?? null;

function toView(row: NoticeRow): NoticeView {
  return {
    id: row.id,
    kind: row.kind,
    title: row.title,
    detail: row.detail,
    href: row.href,
    createdAt: row.createdAt.toISOString(),
    resolvedAt: iso(row.resolvedAt),
    dismissedAt: iso(row.dismissedAt),
    emailedAt: iso(row.emailedAt),
    slackPostedAt: iso(row.slackPostedAt),
    notifyError: row.notifyError,
  };
}

/** Open, not dismissed: what the banner shows. */
export async function listActiveNotices(db: Executor, workspaceId: string): Promise<NoticeView[]> {
  const rows = await db
    .select()
    .from(notices)
    .where(and(eq(notices.workspaceId, workspaceId), isNull(notices.resolvedAt), isNull(notices.dismissedAt)))
    .orderBy(...newestFirst(notices.createdAt));
  return rows.map(toView);
}

/** The latest notices, open and resolved. */
export async function listRecentNotices(db: Executor, workspaceId: string, limit = 50): Promise<NoticeView[]> {
  const rows = await db.select().from(notices).where(eq(notices.workspaceId, workspaceId)).orderBy(...newestFirst(notices.createdAt, notices.id)).limit(limit);
  return rows.map(toView);
}

/** Hides a notice from the banner; it stays open (no new alert) until its condition clears. */
export async function dismissNotice(db: Executor, workspaceId: string, noticeId: string): Promise<NoticeView> {
  const [row] = await db
    .update(notices)
    .set({ dismissedAt: sql`coalesce(${notices.dismissedAt}, now())` })
    .where(and(eq(notices.id, noticeId), eq(notices.workspaceId, workspaceId)))
    .returning();
  if (!row) throw notFound("No notice with this id exists in your workspace.");
  return toView(row);
}
