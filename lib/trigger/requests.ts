// The request log of trigger endpoints: every call, accepted or refused, kept 7 days.
//
// Recording never adds a database round trip to the request: entries are buffered in memory and
// written by one multi-row INSERT, at most ~100 ms later or as soon as a batch is full. The caller
// awaits its batch after the response (Next's `after()`), so a serverless instance stays up until
// the write is done. The same flush, at most once an hour per process, deletes what is past 7 days.
import { sql } from "drizzle-orm";
import { getDb, type Executor } from "@/db";
import { rowsOf } from "@/db/rows";
import { newId } from "@/lib/crypto/random";
import { toApiError } from "@/lib/http/problem";
import { storableJson } from "@/lib/http/storable-text";
import type { SourceKind } from "@/lib/sources/kinds";
import { describeError } from "@/lib/logging";

/** Bytes of a body kept; the rest is dropped and the record marked truncated. */
export const MAX_RECORDED_BODY_BYTES = 8 * 1024;
export const REQUEST_RETENTION_DAYS = 7;
/** Bodies are counted up to the largest one a trigger endpoint reads (1 MiB); `body_bytes` stops there. */
const MAX_COUNTED_BODY_BYTES = 1024 * 1024 + 1;
const FLUSH_DELAY_MS = 100;
const MAX_BATCH_ROWS = 200;
const PRUNE_EVERY_MS = 60 * 60 * 1000;
const PRUNE_BATCH_ROWS = 5000;

export interface TriggerRequestProblem {
  title: string;
  detail: string;
  errors?: { path: string; code: string; message: string }[];
}

/** What is known about a call once it has been answered. */
export interface TriggerRequestEntry {
  workspaceId: string;
  campaignId: string;
  apiKeyId: string | null;
  keyName: string | null;
  requestId: string | null;
  status: number;
  dryRun: boolean;
  errorCode: string | null;
  problem: TriggerRequestProblem | null;
  messageCount: number;
  body: RecordedBody;
  /** A signed source's delivery: its kind, topic and delivery id; null for an API key call. */
  source: TriggerCallSource | null;
  /** Why a verified delivery was answered without sending (a topic not taken, a ping). */
  ignoredReason: string | null;
}

export interface TriggerCallSource {
  kind: SourceKind;
  topic: string | null;
  deliveryId: string | null;
}

export interface RecordedBody {
  text: string;
  bytes: number;
  truncated: boolean;
}

/**
 * What a request log keeps of a body while something else reads it: the first 8 KiB and the count
 * of bytes, chunk by chunk (`onChunk`), without a second copy of the stream.
 */
export class RecordedBodyTap {
  private readonly chunks: Uint8Array[] = [];
  private kept = 0;
  bytes = 0;

  readonly onChunk = (chunk: Uint8Array): void => {
    if (this.kept <= MAX_RECORDED_BODY_BYTES) {
      this.chunks.push(chunk);
      this.kept += chunk.byteLength;
    }
    this.bytes += chunk.byteLength;
  };

  /** Reads what is left of the body itself (a call refused before its body was read), up to 1 MiB + 1 byte. */
  async readRest(request: Request): Promise<void> {
    if (!request.body || request.bodyUsed) return;
    const reader = request.body.getReader();
    try {
      for (;;) {
        const { done, value } = await reader.read();
        if (done) break;
        this.onChunk(value);
        // Past the kept part, only counted; a body larger than any endpoint reads is not read to its end.
        if (this.bytes > MAX_COUNTED_BODY_BYTES) break;
      }
    } catch {
      // The client went away or the stream was cut: keep what arrived.
    } finally {
      if (this.bytes > MAX_COUNTED_BODY_BYTES) await reader.cancel().catch(() => {});
      reader.releaseLock();
    }
  }

  recorded(): RecordedBody {
    const all = new Uint8Array(Math.min(this.bytes, MAX_RECORDED_BODY_BYTES + 1));
    let offset = 0;
    for (const chunk of this.chunks) {
      const part = chunk.subarray(0, all.length - offset);
      all.set(part, offset);
      offset += part.byteLength;
    }
    return { ...recordedBodyFromBytes(all, this.bytes > MAX_RECORDED_BODY_BYTES), bytes: Math.min(this.bytes, MAX_COUNTED_BODY_BYTES) };
  }
}

/**
 * The first 8 KiB of a request body as text, with the body's size. An unreadable body is recorded
 * as what arrived.
 */
export async function readRecordedBody(request: Request): Promise<RecordedBody> {
  const tap = new RecordedBodyTap();
  await tap.readRest(request);
  return tap.recorded();
}

/** One answered call to a trigger endpoint, as the handler knows it. */
export interface TriggerCall {
  workspaceId: string;
  campaignId: string;
  actor: { type: string; id: string; name?: string | null };
  requestId: string;
  dryRun: boolean;
  /** What the handler read of the body (`RecordedBodyTap.readRest` has read the rest). */
  body: RecordedBody;
  result: { status: number; body: unknown } | { error: unknown };
  source?: TriggerCallSource | null;
  /** Set when the call was answered 2xx and deliberately sent nothing. */
  ignoredReason?: string | null;
}

/** Buffers the call; settles when its batch is written. */
export async function recordTriggerCall(call: TriggerCall): Promise<void> {
  const entry = triggerRequestEntry(call, call.body);
  if (entry) await recordTriggerRequest(entry);
}

/** The log entry for a call; null for one that names no campaign of the workspace (404). */
export function triggerRequestEntry(call: TriggerCall, body: RecordedBody): TriggerRequestEntry | null {
  const base = {
    workspaceId: call.workspaceId,
    campaignId: call.campaignId,
    apiKeyId: call.actor.type === "api_key" ? call.actor.id : null,
    keyName: call.actor.type === "api_key" ? (call.actor.name ?? null) : null,
    requestId: call.requestId,
    dryRun: call.dryRun,
    body,
    source: call.source ?? null,
    ignoredReason: null,
  };
  if ("error" in call.result) {
    const error = toApiError(call.result.error);
    if (error.code === "not_found") return null;
    return {
      ...base,
      status: error.status,
      errorCode: error.code,
      problem: { title: error.title, detail: error.detail, ...(error.errors ? { errors: error.errors } : {}) },
      messageCount: 0,
    };
  }
  const { status, body: responseBody } = call.result;
  const data = (responseBody as { data?: unknown[] } | null)?.data;
  const ignoredReason = call.ignoredReason ?? null;
  const messageCount = call.dryRun || ignoredReason !== null || status >= 300 ? 0 : Array.isArray(data) ? data.length : 1;
  return { ...base, status, errorCode: null, problem: null, messageCount, ignoredReason };
}

/** Bytes → kept text: cut at the cap without splitting a UTF-8 character. */
export function recordedBodyFromBytes(raw: Uint8Array, knownTruncated = false): RecordedBody {
  const truncated = knownTruncated || raw.byteLength > MAX_RECORDED_BODY_BYTES;
  const kept = raw.subarray(0, MAX_RECORDED_BODY_BYTES);
  // `stream: true` holds back a trailing partial character instead of writing U+FFFD for it.
  const text = new TextDecoder("utf-8", { ignoreBOM: false }).decode(kept, { stream: truncated });
  // Postgres text cannot hold NUL.
  return { text: text.replaceAll("\u0000", "\uFFFD"), bytes: raw.byteLength, truncated };
}

interface Buffer {
  entries: (TriggerRequestEntry & { id: string })[];
  timer: ReturnType<typeof setTimeout> | null;
  /** Resolves when the batch being filled has been written. */
  pending: { promise: Promise<void>; resolve: () => void } | null;
  lastPruneAt: number;
  writing: Promise<void>;
}

// One buffer per process, also across Next's module instances.
const globalBuffer = globalThis as { __sendstreamTriggerRequests?: Buffer };
function buffer(): Buffer {
  globalBuffer.__sendstreamTriggerRequests ??= {
    entries: [],
    timer: null,
    pending: null,
    lastPruneAt: 0,
    writing: Promise.resolve(),
  };
  return globalBuffer.__sendstreamTriggerRequests;
}

/**
 * Adds a call to the log. The returned promise settles once the batch holding it is written (or
 * failed: failures are logged, never thrown, and the entries dropped).
 */
export function recordTriggerRequest(entry: TriggerRequestEntry): Promise<void> {
  const state = buffer();
  state.entries.push({ ...entry, id: newId("req") });
  if (!state.pending) {
    let resolve!: () => void;
    const promise = new Promise<void>((r) => (resolve = r));
    state.pending = { promise, resolve };
  }
  const done = state.pending.promise;
  if (state.entries.length >= MAX_BATCH_ROWS) void flushTriggerRequests();
  else if (!state.timer) {
    state.timer = setTimeout(() => void flushTriggerRequests(), FLUSH_DELAY_MS);
    state.timer.unref?.();
  }
  return done;
}

/** Writes everything buffered now (also called on shutdown and by tests). */
export async function flushTriggerRequests(db?: Executor): Promise<void> {
  const state = buffer();
  if (state.timer) clearTimeout(state.timer);
  state.timer = null;
  const entries = state.entries.splice(0);
  const pending = state.pending;
  state.pending = null;
  const previous = state.writing;
  const write = (async () => {
    await previous;
    if (entries.length === 0) return;
    const executor = db ?? (await getDb());
    await insertTriggerRequests(executor, entries);
    if (Date.now() - state.lastPruneAt >= PRUNE_EVERY_MS) {
      state.lastPruneAt = Date.now();
      await pruneTriggerRequests(executor).catch((error: unknown) => {
        console.error(`[trigger requests] pruning failed: ${describeError(error)}`);
      });
    }
  })();
  state.writing = write;
  await write;
  pending?.resolve();
}

/**
 * One INSERT for a batch. Rows whose campaign is not in the named workspace (or is gone) are
 * dropped by the join, so a call for another workspace's campaign leaves nothing behind. Text that
 * Postgres cannot hold (a NUL, an unpaired surrogate: a campaign id or key name as a caller sent it)
 * is stored with U+FFFD in its place. Should the batch fail anyway, its rows are written one by one:
 * one workspace's bad row never drops another's.
 */
async function insertTriggerRequests(db: Executor, entries: (TriggerRequestEntry & { id: string })[]): Promise<void> {
  try {
    await insertRows(db, entries);
    return;
  } catch (error) {
    if (entries.length === 1) {
      console.error(`[trigger requests] writing a request log entry failed: ${describeError(error)}`);
      return;
    }
  }
  let failed = 0;
  let lastError: unknown;
  for (const entry of entries) {
    await insertRows(db, [entry]).catch((error: unknown) => {
      failed += 1;
      lastError = error;
    });
  }
  if (failed > 0) console.error(`[trigger requests] writing ${failed} of ${entries.length} request log entries failed: ${describeError(lastError)}`);
}

async function insertRows(db: Executor, entries: (TriggerRequestEntry & { id: string })[]): Promise<void> {
  const rows = entries.map((e) => storableJson({
    id: e.id,
    workspace_id: e.workspaceId,
    campaign_id: e.campaignId,
    api_key_id: e.apiKeyId,
    key_name: e.keyName,
    request_id: e.requestId,
    status: e.status,
    dry_run: e.dryRun,
    error_code: e.errorCode,
    problem: e.problem,
    message_count: e.messageCount,
    body: e.body.text,
    body_bytes: e.body.bytes,
    body_truncated: e.body.truncated,
    source_kind: e.source?.kind ?? null,
    topic: e.source?.topic ?? null,
    delivery_id: e.source?.deliveryId ?? null,
    ignored_reason: e.ignoredReason,
  }));
  await db.execute(sql`insert into trigger_requests
      (id, workspace_id, campaign_id, api_key_id, key_name, request_id, status, dry_run, error_code, problem,
       message_count, body, body_bytes, body_truncated, source_kind, topic, delivery_id, ignored_reason)
    select r.id, r.workspace_id, r.campaign_id, r.api_key_id, r.key_name, r.request_id, r.status, r.dry_run, r.error_code,
           r.problem, r.message_count, r.body, r.body_bytes, r.body_truncated, r.source_kind, r.topic, r.delivery_id, r.ignored_reason
    from jsonb_to_recordset(${JSON.stringify(rows)}::jsonb) as r(
      id text, workspace_id text, campaign_id text, api_key_id text, key_name text, request_id text, status int,
      dry_run boolean, error_code text, problem jsonb, message_count int, body text, body_bytes int, body_truncated boolean,
      source_kind text, topic text, delivery_id text, ignored_reason text)
    join campaigns c on c.id = r.campaign_id and c.workspace_id = r.workspace_id
    on conflict (id) do nothing`);
}

/** Deletes records older than 7 days, a bounded batch at a time; returns how many went. */
export async function pruneTriggerRequests(db: Executor, now: Date = new Date()): Promise<number> {
  const cutoff = new Date(now.getTime() - REQUEST_RETENTION_DAYS * 24 * 60 * 60 * 1000);
  let total = 0;
  for (;;) {
    const result = await db.execute(sql`delete from trigger_requests where id in (
        select id from trigger_requests where created_at < ${cutoff.toISOString()}::timestamptz limit ${PRUNE_BATCH_ROWS}
      ) returning id`);
    const deleted = rowsOf(result).length;
    total += deleted;
    if (deleted < PRUNE_BATCH_ROWS) return total;
  }
}
