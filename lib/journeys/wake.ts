// Waking runs that wait on a message (delivered, read, replied) or a button tap: set-based, at the
// start of each runner pass. A woken run keeps `waiting` with no token and is due now: the runner
// then takes the wait's `next` (a run still holding its token when due has timed out).
// Events sent to the API and triggers wake their runs themselves (contact-events.ts).
import { sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { queryRows } from "@/db/rows";

/** Wakes every waiting run whose message status, reply or button tap happened. Returns how many woke. */
export async function wakeRuns(db: Executor): Promise<number> {
  const [row] = await queryRows<{ woken: number }>(
    db,
    sql`with on_message as (
        update journey_runs r
        set wait_token = null, due_at = now(), updated_at = now(),
            last_reply = case when split_part(r.wait_token, ':', 3) = 'replied' then coalesce((
              select jsonb_build_object('text', im.text, 'payload', im.payload) from inbound_messages im
              where im.contact_id = r.contact_id and im.created_at >= m.created_at order by im.created_at desc limit 1), r.last_reply)
              else r.last_reply end
        from messages m
        where r.status = 'waiting' and r.wait_token like 'message:%' and m.id = split_part(r.wait_token, ':', 2)
          and case split_part(r.wait_token, ':', 3)
            when 'delivered' then m.delivered_at is not null or m.read_at is not null or m.replied_at is not null
            when 'read' then m.read_at is not null or m.replied_at is not null
            when 'replied' then m.replied_at is not null
            else false end
        returning r.id
      ),
      taps as (
        select w.id, (
          select jsonb_build_object('text', im.text, 'payload', im.payload) from inbound_messages im
          where im.contact_id = w.contact_id and im.kind in ('button', 'interactive') and im.created_at >= w.updated_at
            and (w.payload is null or lower(btrim(coalesce(im.payload, im.text, ''))) = lower(btrim(w.payload)))
          order by im.created_at limit 1) as reply
        from (
          select r.id, r.contact_id, r.updated_at,
            nullif(substr(r.wait_token, length('button:' || r.contact_id || ':') + 1), '') as payload
          from journey_runs r where r.status = 'waiting' and r.wait_token like 'button:%'
        ) w
      ),
      on_button as (
        update journey_runs r set wait_token = null, due_at = now(), updated_at = now(), last_reply = t.reply
        from taps t where r.id = t.id and t.reply is not null and r.status = 'waiting'
        returning r.id
      )
      select (select count(*) from on_message)::int + (select count(*) from on_button)::int as woken`,
  );
  return Number(row?.woken ?? 0);
}
