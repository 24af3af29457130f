// Journey runs as callers see them: a workspace's runs listed newest first (by campaign, contact,
// phone, status), one run with its history, and ending a run by hand. Another workspace's run is 404.
import { and, asc, eq, inArray, type SQL } from "drizzle-orm";
import type { Executor } from "@/db";
import { cursorTimestamp, decodeCursor, encodeCursor, keysetCondition, newestFirst } from "@/db/cursor";
import { journeyRuns, journeyRunSteps, journeyVersions, type JourneyRunStatus } from "@/db/schema";
import { recordAudit, type AuditActor } from "@/lib/audit/service";
import { parseStoredJourney, stepById, type Journey, type JourneyStepType } from "@/lib/campaigns/journey";
import { invalidCursor } from "@/lib/contacts/sql";
import { resolveContactId } from "@/lib/contacts/service";
import { conflict, notFound } from "@/lib/http/errors";
import { endRun } from "./finish";
import type { ListJourneyRunsQuery } from "./schemas";

const RUN_ID = /^run_[A-Za-z0-9]{1,64}$/;

export interface PublicJourneyRun {
  id: string;
  object: "journey_run";
  status: JourneyRunStatus;
  campaignId: string;
  /** The journey version the run follows. */
  version: number;
  contactId: string;
  phone: string;
  /** The step it runs next (active) or waits in (waiting); null once it is over. */
  stepId: string | null;
  /** When its current step is due, or its wait times out. */
  dueAt: string | null;
  /** `trigger`, `event` or `test`. */
  entry: string;
  exitReason: string | null;
  error: string | null;
  convertedAt: string | null;
  createdAt: string;
  endedAt: string | null;
}

export interface JourneyRunStepItem {
  stepId: string;
  /** From the run's version of the journey; null when the step has no name (or is not in it). */
  stepName: string | null;
  stepType: JourneyStepType | null;
  outcome: string;
  messageId: string | null;
  detail: string | null;
  at: string;
}

export type JourneyRunWithHistory = PublicJourneyRun & { history: JourneyRunStepItem[] };

export interface JourneyRunPage {
  data: PublicJourneyRun[];
  nextCursor: string | null;
}

type RunRow = typeof journeyRuns.$inferSelect;

export function toPublicRun(row: RunRow): PublicJourneyRun {
  return {
    id: row.id,
    object: "journey_run",
    status: row.status,
    campaignId: row.campaignId,
    version: row.version,
    contactId: row.contactId,
    phone: row.phoneNumber,
    stepId: row.stepId,
    dueAt: row.dueAt?.toISOString() ?? null,
    entry: row.entry,
    exitReason: row.exitReason,
    error: row.error,
    convertedAt: row.convertedAt?.toISOString() ?? null,
    createdAt: row.enteredAt.toISOString(),
    endedAt: row.endedAt?.toISOString() ?? null,
  };
}

export const runNotFound = () => notFound("No journey run with this id exists in your workspace.");

/** One page of the workspace's runs, newest first. */
export async function listJourneyRuns(db: Executor, workspaceId: string, query: Partial<ListJourneyRunsQuery>): Promise<JourneyRunPage> {
  const limit = Math.min(Math.max(query.limit ?? 50, 1), 100);
  const conditions: (SQL | undefined)[] = [eq(journeyRuns.workspaceId, workspaceId)];
  if (query.campaignId) conditions.push(eq(journeyRuns.campaignId, query.campaignId));
  if (query.contactId) conditions.push(eq(journeyRuns.contactId, query.contactId));
  if (query.phone) conditions.push(eq(journeyRuns.phoneNumber, query.phone));
  if (query.status) conditions.push(eq(journeyRuns.status, query.status));
  if (query.cursor) {
    const cursor = decodeCursor(query.cursor, { id: RUN_ID });
    if (!cursor || cursor.direction !== "older") throw invalidCursor();
    conditions.push(keysetCondition({ createdAt: journeyRuns.enteredAt, id: journeyRuns.id }, cursor));
  }
  const rows = await db
    .select({ run: journeyRuns, position: cursorTimestamp(journeyRuns.enteredAt) })
    .from(journeyRuns)
    .where(and(...conditions))
    .orderBy(...newestFirst(journeyRuns.enteredAt, journeyRuns.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map((row) => toPublicRun(row.run)),
    nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.position, id: last.run.id, direction: "older" }) : null,
  };
}

/** A contact's runs (by id or phone number), newest first; 404 for a contact not in the workspace. */
export async function listContactJourneyRuns(db: Executor, workspaceId: string, idOrPhone: string, query: Partial<ListJourneyRunsQuery>): Promise<JourneyRunPage> {
  const contactId = await resolveContactId(db, workspaceId, idOrPhone);
  return listJourneyRuns(db, workspaceId, { ...query, contactId, phone: undefined });
}

async function runRow(db: Executor, workspaceId: string, id: string): Promise<RunRow> {
  if (!RUN_ID.test(id)) throw runNotFound();
  const [row] = await db
    .select()
    .from(journeyRuns)
    .where(and(eq(journeyRuns.workspaceId, workspaceId), eq(journeyRuns.id, id)))
    .limit(1);
  if (!row) throw runNotFound();
  return row;
}

/** The journey documents of these (campaign, version) pairs, keyed `campaignId:version`. */
export async function journeyDocuments(db: Executor, pairs: { campaignId: string; version: number }[]): Promise<Map<string, Journey>> {
  const documents = new Map<string, Journey>();
  const campaignIds = [...new Set(pairs.map((p) => p.campaignId))];
  if (campaignIds.length === 0) return documents;
  const wanted = new Set(pairs.map((p) => `${p.campaignId}:${p.version}`));
  const rows = await db.select().from(journeyVersions).where(inArray(journeyVersions.campaignId, campaignIds));
  for (const row of rows) {
    const key = `${row.campaignId}:${row.version}`;
    const journey = wanted.has(key) ? parseStoredJourney(row.document) : null;
    if (journey) documents.set(key, journey);
  }
  return documents;
}

/** The run with the steps it took, in order. */
export async function getJourneyRun(db: Executor, workspaceId: string, id: string): Promise<JourneyRunWithHistory> {
  const row = await runRow(db, workspaceId, id);
  const [steps, documents] = await Promise.all([
    db.select().from(journeyRunSteps).where(eq(journeyRunSteps.runId, row.id)).orderBy(asc(journeyRunSteps.at), asc(journeyRunSteps.id)),
    journeyDocuments(db, [{ campaignId: row.campaignId, version: row.version }]),
  ]);
  const journey = documents.get(`${row.campaignId}:${row.version}`) ?? null;
  return {
    ...toPublicRun(row),
    history: steps.map((step) => {
      const found = journey ? stepById(journey, step.stepId) : null;
      return {
        stepId: step.stepId,
        stepName: found?.name ?? null,
        stepType: found?.type ?? null,
        outcome: step.outcome,
        messageId: step.messageId,
        detail: step.detail,
        at: step.at.toISOString(),
      };
    }),
  };
}

/** Ends a going run by hand (its queued messages are skipped); 409 `run_not_active` when it is over already. Audited. */
export async function endJourneyRun(db: Executor, workspaceId: string, id: string, actor: AuditActor): Promise<JourneyRunWithHistory> {
  const row = await runRow(db, workspaceId, id);
  const ended = await db.transaction(async (tx) => {
    const finished = await endRun(tx, workspaceId, row.id, actor.apiKeyId ? "Ended through the API." : "Ended by a member.");
    if (finished) {
      await recordAudit(tx, { workspaceId, actor, action: "journey_run.ended", targetType: "journey_run", targetId: row.id, metadata: { campaignId: row.campaignId, stepId: finished.step_id } });
    }
    return finished;
  });
  if (!ended) throw conflict(`The run is ${row.status === "active" || row.status === "waiting" ? "over" : row.status} already: there is nothing to end.`, "run_not_active");
  return getJourneyRun(db, workspaceId, row.id);
}

