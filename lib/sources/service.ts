// A trigger campaign's source: which signed sender it takes deliveries from, the topics it takes,
// and the signing secret (encrypted at rest, shown once when set, rollable with an overlap).
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { recordAudit, type AuditActor } from "@/lib/audit/service";
import { randomBase62 } from "@/lib/crypto/random";
import { decryptSecret, encryptSecret } from "@/lib/crypto/secrets";
import { appUrl } from "@/lib/env";
import { generateSigningSecret, SECRET_PREFIX } from "@/lib/event-webhooks/signing";
import { ApiError, notFound, validationFailed } from "@/lib/http/errors";
import { isSignedSourceKind, type CampaignSource, type SignedSourceKind, type SourceKind } from "./kinds";
import type { PutSourceInput, SetSecretInput } from "./schemas";

interface SourceRow {
  campaign_kind: "trigger" | "bulk";
  kind: SourceKind | null;
  topics: string[] | null;
  secret_encrypted: string | null;
  secret_created_at: string | Date | null;
  previous_secret_encrypted: string | null;
  previous_secret_expires_at: string | Date | null;
}

/** The trigger URL: the same for API keys and signed sources (no key in it). */
export const sourceUrl = (campaignId: string, origin?: string) => `${appUrl(origin)}/api/campaigns/${campaignId}/trigger`;

async function loadRow(db: Executor, workspaceId: string, campaignId: string, lock = false): Promise<SourceRow> {
  const [row] = await queryRows<SourceRow>(
    db,
    sql`select c.kind as campaign_kind, s.kind, s.topics, s.secret_encrypted, s.secret_created_at,
          s.previous_secret_encrypted, s.previous_secret_expires_at
        from campaigns c left join campaign_sources s on s.campaign_id = c.id
        where c.id = ${campaignId} and c.workspace_id = ${workspaceId}
        ${lock ? sql`for update of c` : sql``}`,
  );
  if (!row) throw notFound("No campaign with this id exists in this workspace.");
  if (row.campaign_kind !== "trigger") {
    throw new ApiError("not_a_trigger_campaign", "This is a bulk campaign: it sends to its audience and takes no trigger requests, so it has no source.");
  }
  return row;
}

const iso = (value: string | Date | null) => (value === null ? null : new Date(value).toISOString());

function view(row: SourceRow, campaignId: string, origin: string | undefined, now = new Date()): CampaignSource {
  const secret = row.secret_encrypted ? decryptSecret(row.secret_encrypted) : null;
  const previousLive = row.previous_secret_encrypted && row.previous_secret_expires_at && new Date(row.previous_secret_expires_at) > now;
  return {
    kind: row.kind ?? "api_key",
    topics: row.topics ?? [],
    secret: {
      set: secret !== null,
      last4: secret ? secret.slice(-4) : null,
      createdAt: secret ? iso(row.secret_created_at) : null,
      previousExpiresAt: previousLive ? iso(row.previous_secret_expires_at) : null,
    },
    url: sourceUrl(campaignId, origin),
  };
}

export async function getCampaignSource(db: Executor, workspaceId: string, campaignId: string, origin?: string): Promise<CampaignSource> {
  return view(await loadRow(db, workspaceId, campaignId), campaignId, origin);
}

/**
 * Sets the kind and topics. Another kind signs another way: its secret is dropped (the source
 * then refuses every delivery until a secret is set).
 */
export async function putCampaignSource(
  db: Executor,
  input: { workspaceId: string; campaignId: string; source: PutSourceInput; actor: AuditActor; origin?: string },
): Promise<CampaignSource> {
  return db.transaction(async (tx) => {
    const before = await loadRow(tx, input.workspaceId, input.campaignId, true);
    const kindChanged = (before.kind ?? "api_key") !== input.source.kind;
    const [row] = await queryRows<SourceRow>(
      tx,
      sql`insert into campaign_sources as s (campaign_id, workspace_id, kind, topics)
          values (${input.campaignId}, ${input.workspaceId}, ${input.source.kind}, ${textArray(input.source.topics)})
          on conflict (campaign_id) do update set
            kind = excluded.kind,
            topics = excluded.topics,
            secret_encrypted = case when ${kindChanged} then null else s.secret_encrypted end,
            secret_created_at = case when ${kindChanged} then null else s.secret_created_at end,
            previous_secret_encrypted = case when ${kindChanged} then null else s.previous_secret_encrypted end,
            previous_secret_expires_at = case when ${kindChanged} then null else s.previous_secret_expires_at end,
            updated_at = now()
          returning 'trigger' as campaign_kind, s.kind, s.topics, s.secret_encrypted, s.secret_created_at,
            s.previous_secret_encrypted, s.previous_secret_expires_at`,
    );
    await recordAudit(tx, {
      workspaceId: input.workspaceId,
      actor: input.actor,
      action: "campaign.source_changed",
      targetType: "campaign",
      targetId: input.campaignId,
      metadata: { kind: input.source.kind, topics: input.source.topics, previousKind: before.kind ?? "api_key" },
    });
    return view(row!, input.campaignId, input.origin);
  });
}

/** A new secret for the kind: Standard Webhooks' `whsec_` + base64 form, otherwise 32 base62 characters. */
export function generateSourceSecret(kind: SignedSourceKind): string {
  if (kind === "standard_webhooks") return generateSigningSecret();
  if (kind === "stripe") return `${SECRET_PREFIX}${randomBase62(32)}`;
  return randomBase62(32);
}

/** Kind-specific checks of a pasted secret: field errors at `secret`, or none. */
export function pastedSecretProblem(kind: SignedSourceKind, secret: string): string | null {
  if (kind === "stripe" && !secret.startsWith(SECRET_PREFIX)) {
    return "A Stripe signing secret starts with whsec_ (Developers → Webhooks → the endpoint → Signing secret); an API key (sk_…) is not it.";
  }
  if (kind === "standard_webhooks") {
    const key = secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : "";
    const bytes = Buffer.from(key, "base64").byteLength;
    if (!/^[A-Za-z0-9+/]+={0,2}$/.test(key) || bytes < 24 || bytes > 64) {
      return "A Standard Webhooks secret is whsec_ followed by the base64 of 24 to 64 random bytes.";
    }
  }
  return null;
}

/**
 * Sets the signing secret (pasted, or generated when none is given); the one it replaces stays
 * valid for `overlapHours`. Returns the secret: it is not shown again.
 */
export async function setSourceSecret(
  db: Executor,
  input: { workspaceId: string; campaignId: string; request: SetSecretInput; actor: AuditActor; origin?: string },
): Promise<{ secret: string; source: CampaignSource }> {
  return db.transaction(async (tx) => {
    const before = await loadRow(tx, input.workspaceId, input.campaignId, true);
    const kind = before.kind ?? "api_key";
    if (!isSignedSourceKind(kind)) {
      throw new ApiError("source_not_signed", "This campaign is called with API keys, which need no signing secret. Choose a signed source first (PUT …/source).");
    }
    const pasted = input.request.secret;
    if (pasted !== undefined) {
      const problem = pastedSecretProblem(kind, pasted);
      if (problem) throw validationFailed([{ path: "secret", code: "invalid_secret", message: problem }]);
    }
    const secret = pasted ?? generateSourceSecret(kind);
    const keepPrevious = before.secret_encrypted !== null && input.request.overlapHours > 0;
    const [row] = await queryRows<SourceRow>(
      tx,
      sql`update campaign_sources set
            secret_encrypted = ${encryptSecret(secret)},
            secret_created_at = now(),
            previous_secret_encrypted = ${keepPrevious ? before.secret_encrypted : null},
            previous_secret_expires_at = ${keepPrevious ? sql`now() + make_interval(hours => ${input.request.overlapHours}::int)` : sql`null`},
            updated_at = now()
          where campaign_id = ${input.campaignId}
          returning 'trigger' as campaign_kind, kind, topics, secret_encrypted, secret_created_at,
            previous_secret_encrypted, previous_secret_expires_at`,
    );
    await recordAudit(tx, {
      workspaceId: input.workspaceId,
      actor: input.actor,
      action: "campaign.source_secret_set",
      targetType: "campaign",
      targetId: input.campaignId,
      metadata: { kind, generated: pasted === undefined, overlapHours: keepPrevious ? input.request.overlapHours : 0 },
    });
    return { secret, source: view(row!, input.campaignId, input.origin) };
  });
}

/** What the trigger endpoint needs to verify a delivery without an API key. */
export interface SignedSource {
  campaignId: string;
  workspaceId: string;
  kind: SignedSourceKind;
  topics: string[];
  /** The secrets valid now, current first (a rolled one until its overlap ends). */
  secrets: string[];
}

/**
 * Round trip 1 of a delivery without an API key: the campaign's signed source, by campaign id
 * alone (the workspace comes with it). Null when the campaign has none.
 */
export async function loadSignedSource(db: Executor, campaignId: string): Promise<SignedSource | null> {
  const [row] = await queryRows<{
    workspace_id: string;
    kind: SourceKind;
    topics: string[];
    secret_encrypted: string | null;
    previous_secret: string | null;
  }>(
    db,
    sql`select workspace_id, kind, topics, secret_encrypted,
          case when previous_secret_expires_at > now() then previous_secret_encrypted end as previous_secret
        from campaign_sources where campaign_id = ${campaignId} and kind <> 'api_key'`,
    { prepared: true },
  );
  if (!row || !isSignedSourceKind(row.kind)) return null;
  const secrets = [row.secret_encrypted, row.previous_secret].filter((s): s is string => s !== null).map((sealed) => decryptSecret(sealed));
  return { campaignId, workspaceId: row.workspace_id, kind: row.kind, topics: row.topics ?? [], secrets };
}

/** Whether a delivery's topic is one the source takes (no topics: all of them). */
export function topicTaken(topics: readonly string[], topic: string | null): boolean {
  return topics.length === 0 || (topic !== null && topics.includes(topic));
}

function textArray(values: string[]) {
  return sql`array(select jsonb_array_elements_text(${JSON.stringify(values)}::jsonb))::text[]`;
}
