// The periodic check behind the pool's limits (db/postgres-client.ts): sessions of this application,
// from any of its processes, that sit idle inside a transaction longer than a transaction may last,
// or wait on their client mid-statement longer than a query may take, are ended. Postgres's own
// idle-in-transaction timeout does the first where the session accepted it; this also covers sessions
// behind a pooler (which does not pass the setting on) and a connection wedged mid-protocol (which no
// server-side timeout reaches: the backend waits to read the rest of a statement it has begun).
import { sql } from "drizzle-orm";
import type { Executor } from "./types";
import { queryRows } from "./rows";
import { APPLICATION_NAME, databaseTimeouts, type DatabaseTimeouts } from "./postgres-client";
import { isEmbedded } from "./index";

export interface EndedSession {
  pid: number;
  state: string;
  seconds: number;
}

/** Ends this application's stuck sessions on the current database; returns those it ended. */
export async function endStuckSessions(db: Executor, timeouts: DatabaseTimeouts = databaseTimeouts()): Promise<EndedSession[]> {
  if (isEmbedded()) return [];
  const idleLimit = timeouts.idleInTransactionMs || timeouts.transactionMs;
  const waitLimit = timeouts.queryMs;
  if (!idleLimit && !waitLimit) return [];
  return queryRows<EndedSession>(
    db,
    // Materialised first: in one WHERE clause Postgres may call pg_terminate_backend before the filters.
    sql`with stuck as materialized (
        select pid, state, extract(epoch from now() - state_change)::int as seconds
        from pg_stat_activity
        where datname = current_database() and application_name = ${APPLICATION_NAME} and pid <> pg_backend_pid()
          and (
            (${idleLimit} > 0 and state like 'idle in transaction%' and now() - state_change > ${idleLimit} * interval '1 millisecond')
            -- A COPY FROM STDIN waits on its client by design (an upload being streamed in).
            or (${waitLimit} > 0 and state = 'active' and wait_event = 'ClientRead' and query not ilike '%copy%from stdin%'
                and now() - state_change > ${waitLimit} * interval '1 millisecond')
          )
      )
      select pid, state, seconds from stuck where pg_terminate_backend(pid)`,
  );
}
