// Testing a journey for one phone: the campaign's current document (its draft revision's when it has
// one, else the live one) stored as a version if it is new, one run entered with entry `test` (the
// re-entry rule ignored, waits divided by `timeScale`); its sends are test sends (real, never counted).
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";
import { checkJourney, parseStoredJourney } from "@/lib/campaigns/journey";
import { readFieldPath } from "@/lib/campaigns/field-path";
import { parseStoredTriggerConfig } from "@/lib/campaigns/schemas";
import { parsePhone } from "@/lib/contacts/phone";
import { newId } from "@/lib/crypto/random";
import { ApiError, notFound, validationFailed } from "@/lib/http/errors";
import { enterRuns } from "./enter";
import { MAX_TIME_SCALE } from "./schemas";
import { storeJourneyVersion } from "./versions";


export { MAX_TIME_SCALE };

export interface TestRunInput {
  workspaceId: string;
  campaignId: string;
  phone: string;
  /** An example trigger request body: its mapped fields become the run's context. */
  body: Record<string, unknown>;
  /** Waits are divided by this (1–3600). */
  timeScale: number;
}

export interface TestRun {
  id: string;
  object: "journey_run";
  status: "active";
  campaignId: string;
  phone: string;
  version: number;
  timeScale: number;
  createdAt: string;
}

export async function startTestRun(db: Executor, input: TestRunInput): Promise<TestRun> {
  if (!Number.isInteger(input.timeScale) || input.timeScale < 1 || input.timeScale > MAX_TIME_SCALE) {
    throw validationFailed([{ path: "timeScale", code: "too_big", message: `A whole number from 1 to ${MAX_TIME_SCALE}.` }]);
  }
  const phone = parsePhone(input.phone);
  if (!phone.ok) throw validationFailed([{ path: "phone", code: "invalid_phone", message: `Not a phone number: ${phone.reason}.` }]);
  const [campaign] = await queryRows<{ id: string; kind: string; status: string; journey: unknown; draft_revision: Record<string, unknown> | null; trigger_config: unknown }>(
    db,
    sql`select id, kind, status, journey, draft_revision, trigger_config from campaigns where id = ${input.campaignId} and workspace_id = ${input.workspaceId}`,
  );
  if (!campaign) throw notFound("No campaign with this id exists in your workspace.");
  if (campaign.kind !== "trigger") throw new ApiError("not_a_trigger_campaign", "Only trigger campaigns have journeys.");
  if (campaign.status === "archived") throw new ApiError("invalid_status_transition", "An archived campaign cannot run tests; unarchive it first.");
  const stored = campaign.draft_revision && "journey" in campaign.draft_revision ? campaign.draft_revision.journey : campaign.journey;
  const journey = parseStoredJourney(stored);
  if (!journey) throw validationFailed([{ path: "journey", code: "required", message: "The campaign has no journey to test." }]);
  const triggerConfig = parseStoredTriggerConfig(campaign.trigger_config);
  const issues = checkJourney(journey, { mappedFields: triggerConfig.fields.map((f) => f.field), campaignId: campaign.id });
  if (issues.length > 0) {
    throw validationFailed(issues.map((issue) => ({ path: ["journey", ...issue.path].join("."), code: issue.code, message: issue.message })), "The journey has problems to fix before it can run.");
  }

  const attributes: Record<string, unknown> = {};
  const fields: Record<string, unknown> = { [triggerConfig.phoneField]: phone.phone };
  for (const field of triggerConfig.fields) {
    const value = readFieldPath(input.body, field.field);
    if (value === undefined || value === null) continue;
    attributes[field.attribute] = value;
    fields[field.field] = value;
  }
  const version = await storeJourneyVersion(db, campaign.id, journey);
  const id = newId("run");
  const result = await enterRuns(db, {
    workspaceId: input.workspaceId,
    campaignId: campaign.id,
    version,
    journey,
    entry: "test",
    timeScale: input.timeScale,
    ignoreReentry: true,
    contacts: [{ id: newId("ctc"), phone: phone.phone, name: null, attributes: {} }],
    entries: [{ id, phone: phone.phone, context: { attributes, fields }, answer: { id }, enter: true }],
  });
  if (result.entered.length !== 1) throw new Error("The test run did not enter.");
  return { id, object: "journey_run", status: "active", campaignId: campaign.id, phone: phone.phone, version, timeScale: input.timeScale, createdAt: new Date().toISOString() };
}
