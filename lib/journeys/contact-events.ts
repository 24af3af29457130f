// Something happened to a contact (an event sent to the API, a trigger accepted by a campaign): the
// contact's runs that exit on it end, the runs waiting for it wake, and the runs of journeys whose
// goal it is convert. As CTEs, so the statement that records the event does all of it atomically.
// Each run is updated by one CTE only (a row updated twice in one statement keeps one of the two).
import { sql, type SQL } from "drizzle-orm";
import { finishRunsCtes } from "./finish";

/** How long after its end a run still converts. */
export const CONVERSION_WINDOW_DAYS = 7;

/** The goal a token stands for, as the JSON a journey's `goal` contains. */
function goalOf(token: string): Record<string, string> {
  if (token.startsWith("event:")) return { kind: "event", name: token.slice("event:".length) };
  if (token.startsWith("campaign:")) return { kind: "campaign", campaignId: token.slice("campaign:".length) };
  return { kind: "none" };
}

/**
 * CTEs `ev_exited` (+ its history and skipped messages), `ev_going` (woken and/or converted going
 * runs) and `ev_converted` (ended runs converting within the window) for the event `token` of the
 * contacts `contactIds` selects (a subquery of contact ids of `workspaceId`). Going runs are found
 * through the contact index; ended ones through the (campaign, contact) index of the journeys whose
 * live goal is this event.
 */
export function contactEventCtes(input: { workspaceId: string; token: string; contactIds: SQL; reason: string }): SQL {
  const goal = JSON.stringify(goalOf(input.token));
  const goalMatches = sql`exists (select 1 from campaigns g where g.id = r.campaign_id and g.journey -> 'goal' @> ${goal}::jsonb)`;
  const converted = sql`coalesce(r.converted_at, case when ${goalMatches} then now() end)`;
  const waits = sql`(r.status = 'waiting' and r.wait_token = ${input.token})`;
  return sql`${finishRunsCtes("ev_exited", sql`r.contact_id in (${input.contactIds}) and ${input.token} = any(r.exit_tokens)`, "exited", input.reason, sql`, converted_at = ${converted}`)},
      ev_going as (
        update journey_runs r
        set wait_token = case when ${waits} then null else r.wait_token end,
            due_at = case when ${waits} then now() else r.due_at end,
            converted_at = ${converted}, updated_at = now()
        where r.status in ('active', 'waiting') and r.contact_id in (${input.contactIds}) and not (${input.token} = any(r.exit_tokens))
          and (${waits} or (r.converted_at is null and ${goalMatches}))
        returning r.id
      ),
      ev_converted as (
        update journey_runs r set converted_at = now()
        from campaigns c
        where c.workspace_id = ${input.workspaceId} and c.journey_version > 0 and c.journey -> 'goal' @> ${goal}::jsonb
          and r.campaign_id = c.id and r.contact_id in (${input.contactIds}) and r.converted_at is null
          and r.status not in ('active', 'waiting') and r.ended_at > now() - make_interval(days => ${CONVERSION_WINDOW_DAYS})
        returning r.id
      )`;
}

/** In a statement with `contactEventCtes`: the ids of the runs it ended, as a jsonb array (for `skipQueuedOfRuns`). */
export const EXITED_IDS_SQL = sql`(select coalesce(jsonb_agg(id), '[]'::jsonb) from ev_exited)`;
