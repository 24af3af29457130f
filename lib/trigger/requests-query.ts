// Reading a campaign's request log: newest first, keyset pages, filtered by outcome. The Requests
// tab and `GET /api/v1/campaigns/{id}/requests` both read through here.
import { and, eq, gte, isNotNull, isNull, lt, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db";
import { cursorTimestamp, decodeCursor, encodeCursor, keysetCondition, type KeysetCursor } from "@/db/cursor";
import { triggerRequests } from "@/db/schema";
import { searchParamsRecord } from "@/lib/http/request";
import type { TriggerCallSource, TriggerRequestProblem } from "./requests";

export const REQUEST_OUTCOMES = ["all", "accepted", "rejected", "ignored"] as const;
export type RequestOutcomeFilter = (typeof REQUEST_OUTCOMES)[number];
export const DEFAULT_REQUESTS_PAGE_SIZE = 25;
export const MAX_REQUESTS_PAGE_SIZE = 100;

const emptyToUndefined = (value: unknown) => (typeof value === "string" && value.trim() === "" ? undefined : value);

export const requestListParamsSchema = z.object({
  outcome: z.preprocess(
    emptyToUndefined,
    z.enum(REQUEST_OUTCOMES, { error: "Use outcome=accepted, rejected, ignored or all." }).default("all"),
  ),
  /** A signed source's topic, exactly as the sender named it. */
  topic: z.preprocess(emptyToUndefined, z.string().max(100, { error: "A topic has at most 100 characters." }).optional()),
  cursor: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .max(512)
      .transform((value, ctx): KeysetCursor => {
        const cursor = decodeCursor(value, { id: /^req_/ });
        if (!cursor) {
          ctx.addIssue({ code: "custom", message: "This cursor is not valid. Use nextCursor from a previous page." });
          return z.NEVER;
        }
        return cursor;
      })
      .optional(),
  ),
  limit: z.preprocess(
    emptyToUndefined,
    z.coerce.number().int().min(1).max(MAX_REQUESTS_PAGE_SIZE).default(DEFAULT_REQUESTS_PAGE_SIZE),
  ),
});
export type RequestListParams = z.infer<typeof requestListParamsSchema>;

export function parseRequestListParams(input: URLSearchParams | Record<string, string | string[] | undefined>): RequestListParams {
  return requestListParamsSchema.parse(searchParamsRecord(input));
}

/** One call as the Requests tab and the API show it. */
export interface TriggerRequestRecord {
  id: string;
  receivedAt: string;
  status: number;
  /** `ignored`: a verified delivery answered 2xx without sending (a topic not taken, a ping). */
  outcome: "accepted" | "rejected" | "ignored";
  /** Why it was ignored; null otherwise. */
  ignoredReason: string | null;
  dryRun: boolean;
  /** A signed source's delivery: kind, topic and delivery id; null for an API key call. */
  source: TriggerCallSource | null;
  /** The API key that made the call (its name as it was then), or null. */
  key: { id: string | null; name: string | null } | null;
  requestId: string | null;
  /** The refusal's problem code, title, detail and field errors; null when accepted. */
  error: (TriggerRequestProblem & { code: string }) | null;
  /** Messages the call queued or skipped (0 for a refusal or a dry run). */
  messageCount: number;
  /** The body as received, up to 8 KiB. */
  body: string;
  bodyBytes: number;
  bodyTruncated: boolean;
}

export interface TriggerRequestPage {
  data: TriggerRequestRecord[];
  /** Reads the next (older) page; null on the last one. */
  nextCursor: string | null;
}

const position = cursorTimestamp(triggerRequests.createdAt);

export function outcomeCondition(outcome: RequestOutcomeFilter): SQL | undefined {
  if (outcome === "accepted") return and(lt(triggerRequests.status, 400), isNull(triggerRequests.ignoredReason));
  if (outcome === "rejected") return gte(triggerRequests.status, 400);
  if (outcome === "ignored") return isNotNull(triggerRequests.ignoredReason);
  return undefined;
}

export async function listTriggerRequests(
  db: Executor,
  scope: { workspaceId: string; campaignId: string },
  params: RequestListParams,
): Promise<TriggerRequestPage> {
  const where = and(
    eq(triggerRequests.workspaceId, scope.workspaceId),
    eq(triggerRequests.campaignId, scope.campaignId),
    outcomeCondition(params.outcome),
    params.topic !== undefined ? eq(triggerRequests.topic, params.topic) : undefined,
    params.cursor ? keysetCondition(triggerRequests, { ...params.cursor, direction: "older" }) : undefined,
  );
  const rows = await db
    .select({
      id: triggerRequests.id,
      apiKeyId: triggerRequests.apiKeyId,
      keyName: triggerRequests.keyName,
      requestId: triggerRequests.requestId,
      status: triggerRequests.status,
      dryRun: triggerRequests.dryRun,
      errorCode: triggerRequests.errorCode,
      problem: triggerRequests.problem,
      messageCount: triggerRequests.messageCount,
      body: triggerRequests.body,
      bodyBytes: triggerRequests.bodyBytes,
      bodyTruncated: triggerRequests.bodyTruncated,
      sourceKind: triggerRequests.sourceKind,
      topic: triggerRequests.topic,
      deliveryId: triggerRequests.deliveryId,
      ignoredReason: triggerRequests.ignoredReason,
      createdAt: triggerRequests.createdAt,
      position,
    })
    .from(triggerRequests)
    .where(where)
    .orderBy(sql`${triggerRequests.createdAt} desc nulls last`, sql`${triggerRequests.id} desc nulls last`)
    .limit(params.limit + 1);
  const page = rows.slice(0, params.limit);
  const last = page.at(-1);
  return {
    data: page.map((row) => ({
      id: row.id,
      receivedAt: row.createdAt.toISOString(),
      status: row.status,
      outcome: row.status >= 400 ? "rejected" : row.ignoredReason !== null ? "ignored" : "accepted",
      ignoredReason: row.ignoredReason,
      dryRun: row.dryRun,
      source: row.sourceKind ? { kind: row.sourceKind, topic: row.topic, deliveryId: row.deliveryId } : null,
      key: row.apiKeyId || row.keyName ? { id: row.apiKeyId, name: row.keyName } : null,
      requestId: row.requestId,
      error: row.errorCode ? { code: row.errorCode, ...((row.problem as TriggerRequestProblem | null) ?? { title: "", detail: "" }) } : null,
      messageCount: row.messageCount,
      body: row.body,
      bodyBytes: row.bodyBytes,
      bodyTruncated: row.bodyTruncated,
    })),
    nextCursor: rows.length > params.limit && last ? encodeCursor({ createdAt: last.position, id: last.id, direction: "older" }) : null,
  };
}
