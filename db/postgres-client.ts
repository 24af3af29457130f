// The postgres.js pool and its safety nets. A query or transaction that never ends holds a pool
// connection (and its locks) for good, and with it the request that waits on it; so every limit
// here ends such work, on the server when it can, from the client when the server cannot
// (a connection wedged mid-protocol answers nothing, not even a statement timeout).
// The driver itself is patched at install (`patches/postgres+*.patch`, see db/postgres-driver.test.ts).
import type { Options, PostgresType, Sql, TransactionSql } from "postgres";

/** The variables read here (a subset of the process environment). */
type Env = Partial<Record<string, string>>;

export interface DatabaseTimeouts {
  /** Server side: a statement running longer is cancelled by Postgres (`statement_timeout`). */
  statementMs: number;
  /** Server side: a session idle inside a transaction longer is ended by Postgres. */
  idleInTransactionMs: number;
  /** Client side: a query not answered by then fails, and its connection is closed. */
  queryMs: number;
  /** Client side: a transaction not finished by then fails, and its connection is closed. */
  transactionMs: number;
}

function milliseconds(value: string | undefined, fallback: number): number {
  if (value === undefined || value.trim() === "") return fallback;
  const parsed = Number(value);
  if (!Number.isInteger(parsed) || parsed < 0) throw new Error(`Expected a whole number of milliseconds, got "${value}".`);
  return parsed;
}

/**
 * The limits, from the environment. 0 turns one off. The defaults leave room for the longest
 * legitimate work (a million-row import merges in about a minute) while bounding everything.
 */
export function databaseTimeouts(env: Env = process.env): DatabaseTimeouts {
  const statementMs = milliseconds(env.DATABASE_STATEMENT_TIMEOUT_MS, 120_000);
  return {
    statementMs,
    idleInTransactionMs: milliseconds(env.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS, 60_000),
    // After the server's own limit, so the client acts only when the server could not.
    queryMs: milliseconds(env.DATABASE_QUERY_TIMEOUT_MS, statementMs > 0 ? statementMs + 15_000 : 0),
    transactionMs: milliseconds(env.DATABASE_TRANSACTION_TIMEOUT_MS, 300_000),
  };
}

export const APPLICATION_NAME = "sendstream";

/** The pool's options (size, prepared statements, the server-side limits of every session). */
export function postgresClientOptions(env: Env = process.env): Options<Record<string, PostgresType>> {
  const timeouts = databaseTimeouts(env);
  // Transaction-mode poolers (PgBouncer, Supabase, Neon's pooler) support neither prepared statements
  // nor session settings in the startup message (PgBouncer refuses the connection): behind one, the
  // server-side limits are the database's or role's own (ALTER ROLE … SET statement_timeout …), and
  // the client-side limits and the stuck-session check still apply.
  const pooled = env.DATABASE_PREPARE === "false";
  return {
    max: Number(env.DATABASE_POOL_MAX ?? 10),
    onnotice: () => {},
    prepare: !pooled,
    connection: pooled
      ? { application_name: APPLICATION_NAME }
      : {
          application_name: APPLICATION_NAME,
          statement_timeout: timeouts.statementMs,
          idle_in_transaction_session_timeout: timeouts.idleInTransactionMs,
          // Our statements are short reads and writes through indexes; on a big table the planner's
          // estimates (a set-returning function's thousand rows, say) cross the JIT threshold and
          // compiling costs 20–500 ms per statement (measured: npm run bench:scale).
          jit: "off",
        },
  };
}

/**
 * Prefix for a COPY a client paces (an export read by a slow client, an upload streamed in): it may
 * rightly outlast the statement timeout. In one simple query the two statements share an implicit
 * transaction, so the session's limit is back once the COPY ends, however it ends.
 */
export const COPY_WITHOUT_STATEMENT_TIMEOUT = "set local statement_timeout = 0; ";

export class DatabaseTimeoutError extends Error {
  readonly code = "DATABASE_TIMEOUT";
  constructor(what: string, ms: number) {
    super(`The database did not answer the ${what} within ${ms / 1000} s; its connection was closed.`);
    this.name = "DatabaseTimeoutError";
  }
}

/** What postgres.js keeps on a query: the backend it was sent to, and whether it streams (COPY). */
interface QueryInternals {
  executed?: boolean;
  state?: { pid?: number };
  streaming?: boolean;
  reject?: (error: unknown) => void;
  cancel(): unknown;
}

type AnySql = Sql;
type AnyTransactionSql = TransactionSql;
type AnyQuery = PromiseLike<unknown>;
type Terminate = (pid: number) => Promise<unknown>;

const unguardedClient = Symbol("unguardedClient");

/** The pool without the client-side timeouts (for COPY streams, which a reader paces). */
export function unguarded<T>(client: T): T {
  return ((client as { [unguardedClient]?: T })[unguardedClient] ?? client) as T;
}

/** Ends a query's work when the timer fires: a query still waiting for a connection is dropped;
 * one sent has its backend terminated, which closes the connection and fails what it carried. */
function expire(query: QueryInternals, error: Error, terminate: Terminate) {
  const pid = query.state?.pid;
  if (pid) void terminate(pid).catch(() => {});
  else query.cancel();
  query.reject?.(error);
}

/** A query that fails without ever being sent (postgres.js sends a query once, when first awaited). */
function refused<Q extends AnyQuery>(query: Q, error: Error): Q {
  const internals = query as unknown as QueryInternals;
  internals.executed = true;
  internals.reject?.(error);
  return query;
}

function watch<Q extends AnyQuery>(query: Q, ms: number, terminate: Terminate, onSettled?: () => void): Q {
  const internals = query as unknown as QueryInternals;
  const timer =
    ms > 0
      ? setTimeout(() => {
          if (!internals.streaming) expire(internals, new DatabaseTimeoutError("query", ms), terminate);
        }, ms)
      : undefined;
  timer?.unref();
  const settled = () => {
    clearTimeout(timer);
    onSettled?.();
  };
  // The Promise's own `then`: postgres.js runs a query when its `then` is called, and the caller
  // may still choose how (`.values()`, `.readable()`) right after this returns.
  Promise.prototype.then.call(query, settled, settled);
  return query;
}

/**
 * The pool with a client-side limit on every query (`unsafe`, what drizzle calls) and transaction
 * (`begin`). A transaction that runs out of time fails at once; its queries in flight have their
 * backend terminated (so it cannot commit afterwards) and its later queries fail.
 */
export function withClientTimeouts(client: AnySql, timeouts: DatabaseTimeouts, terminate: Terminate): AnySql {
  const guardTransaction = (tx: AnyTransactionSql, transaction: TransactionState): AnyTransactionSql =>
    new Proxy(tx, {
      get(target, property, receiver) {
        if (property === "unsafe") {
          return (...args: Parameters<AnyTransactionSql["unsafe"]>) => {
            const query = target.unsafe(...args);
            if (transaction.expired) return refused(query, transaction.expired);
            transaction.inFlight.add(query);
            return watch(query, timeouts.queryMs, terminate, () => transaction.inFlight.delete(query));
          };
        }
        if (property === "savepoint") {
          return (...args: unknown[]) => {
            const callback = args.pop() as (sql: AnyTransactionSql) => unknown;
            return (target.savepoint as (...a: unknown[]) => Promise<unknown>)(...args, (savepoint: AnyTransactionSql) =>
              callback(guardTransaction(savepoint, transaction)),
            );
          };
        }
        return Reflect.get(target, property, receiver);
      },
    });

  const begin = (...args: unknown[]) => {
    const callback = args.pop() as (sql: AnyTransactionSql) => unknown;
    const transaction: TransactionState = { inFlight: new Set() };
    const work = (client.begin as (...a: unknown[]) => Promise<unknown>)(...args, (tx: AnyTransactionSql) => {
      if (transaction.expired) throw transaction.expired;
      // Past its deadline a transaction rolls back, even when its callback caught the failures.
      return Promise.resolve(callback(guardTransaction(tx, transaction))).then((result) => {
        if (transaction.expired) throw transaction.expired;
        return result;
      });
    });
    if (timeouts.transactionMs <= 0) return work;
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<never>((_, reject) => {
      timer = setTimeout(() => {
        const error = new DatabaseTimeoutError("transaction", timeouts.transactionMs);
        transaction.expired = error;
        for (const query of transaction.inFlight) expire(query as unknown as QueryInternals, error, terminate);
        reject(error);
      }, timeouts.transactionMs);
      timer.unref();
    });
    // The transaction's own failure after its deadline is the deadline's, already reported.
    work.catch(() => {});
    return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
  };

  return new Proxy(client, {
    get(target, property, receiver) {
      if (property === unguardedClient) return target;
      if (property === "unsafe") {
        return (...args: Parameters<AnySql["unsafe"]>) => watch(target.unsafe(...args), timeouts.queryMs, terminate);
      }
      if (property === "begin") return begin;
      return Reflect.get(target, property, receiver);
    },
  });
}

interface TransactionState {
  expired?: DatabaseTimeoutError;
  inFlight: Set<AnyQuery>;
}
