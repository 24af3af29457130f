// Journey versions: every live document a campaign had, numbered. The lifecycle (deploy, resume,
// publish) records the live `campaigns.journey` in the same transaction as its change; new runs
// enter `campaigns.journey_version`, a running run keeps following the version it entered.
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { parseStoredJourney, type Journey } from "@/lib/campaigns/journey";

/**
 * Records the campaign's live journey as its newest version when it differs from the newest one
 * (a new row, version + 1), and points `campaigns.journey_version` at it. One statement; a campaign
 * without a journey is left as it is. Returns the version new runs enter (0: no journey).
 */
export async function recordJourneyVersion(db: Executor, campaignId: string): Promise<number> {
  const [row] = await queryRows<{ version: number }>(
    db,
    sql`with c as (
        select id, journey from campaigns where id = ${campaignId} and journey is not null
      ),
      latest as (
        select v.version, v.document from journey_versions v where v.campaign_id = ${campaignId} order by v.version desc limit 1
      ),
      added as (
        insert into journey_versions (campaign_id, version, document)
        select c.id, coalesce((select version from latest), 0) + 1, c.journey from c
        where not exists (select 1 from latest where latest.document = c.journey)
        returning version
      )
      update campaigns set journey_version = coalesce((select version from added), (select version from latest))
      where id = ${campaignId} and journey is not null
      returning journey_version as version`,
  );
  return Number(row?.version ?? 0);
}

// Parsed documents per process: a version never changes once written.
const CACHE_LIMIT = 500;
function cache(): Map<string, Journey> {
  const global = globalThis as { __sendstreamJourneyVersions?: Map<string, Journey> };
  global.__sendstreamJourneyVersions ??= new Map();
  return global.__sendstreamJourneyVersions;
}

/** The parsed document of a campaign's version; null when it is missing or does not parse. */
export async function loadJourneyVersion(db: Executor, campaignId: string, version: number): Promise<Journey | null> {
  const key = `${campaignId}:${version}`;
  const cached = cache().get(key);
  if (cached) return cached;
  const [row] = await queryRows<{ document: unknown }>(
    db,
    sql`select document from journey_versions where campaign_id = ${campaignId} and version = ${version}`,
  );
  const journey = parseStoredJourney(row?.document);
  if (journey) {
    const all = cache();
    if (all.size >= CACHE_LIMIT) all.delete(all.keys().next().value!);
    all.set(key, journey);
  }
  return journey;
}

/** Stores a document as the campaign's next version whatever it is (test runs of a draft); returns its version. */
export async function storeJourneyVersion(db: Executor, campaignId: string, document: Journey): Promise<number> {
  const [row] = await queryRows<{ version: number }>(
    db,
    sql`with latest as (
        select v.version, v.document from journey_versions v where v.campaign_id = ${campaignId} order by v.version desc limit 1
      ),
      added as (
        insert into journey_versions (campaign_id, version, document)
        select ${campaignId}, coalesce((select version from latest), 0) + 1, ${JSON.stringify(document)}::jsonb
        where not exists (select 1 from latest where latest.document = ${JSON.stringify(document)}::jsonb)
        returning version
      )
      select coalesce((select version from added), (select version from latest)) as version`,
  );
  return Number(row!.version);
}
