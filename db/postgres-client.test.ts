// The pool's limits on Postgres: the server ends a long statement and an idle transaction, the
// client ends what the server does not answer. Each case would wait forever without its limit.
import { sql as drizzleSql } from "drizzle-orm";
import postgres from "postgres";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { closeDb, getDb } from "./index";
import { COPY_WITHOUT_STATEMENT_TIMEOUT, databaseTimeouts, postgresClientOptions, withClientTimeouts, type DatabaseTimeouts } from "./postgres-client";

const url = process.env.DATABASE_URL;
type Sql = postgres.Sql;

describe("database limits from the environment", () => {
  it("defaults, an explicit 0 turning one off, and the client's query limit after the server's", () => {
    expect(databaseTimeouts({})).toEqual({ statementMs: 120_000, idleInTransactionMs: 60_000, queryMs: 135_000, transactionMs: 300_000 });
    expect(databaseTimeouts({ DATABASE_STATEMENT_TIMEOUT_MS: "0" })).toMatchObject({ statementMs: 0, queryMs: 0 });
    expect(databaseTimeouts({ DATABASE_STATEMENT_TIMEOUT_MS: "2000", DATABASE_QUERY_TIMEOUT_MS: "100" })).toMatchObject({ statementMs: 2000, queryMs: 100 });
    expect(() => databaseTimeouts({ DATABASE_TRANSACTION_TIMEOUT_MS: "soon" })).toThrow(/milliseconds/);
    expect(postgresClientOptions({ DATABASE_STATEMENT_TIMEOUT_MS: "5000" }).connection).toMatchObject({
      statement_timeout: 5000,
      idle_in_transaction_session_timeout: 60_000,
    });
    expect(postgresClientOptions({ DATABASE_PREPARE: "false" })).toMatchObject({ prepare: false, connection: { application_name: "sendstream" } });
    expect(postgresClientOptions({ DATABASE_PREPARE: "false" }).connection).not.toHaveProperty("statement_timeout");
  });
});

describe.skipIf(!url)("database limits on Postgres", () => {
  let admin: Sql;
  const clients: Sql[] = [];

  beforeAll(async () => {
    admin = postgres(url!, { max: 1, onnotice: () => {} });
    await admin`create table if not exists limit_probe (id int primary key)`;
  });
  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.end({ timeout: 1 })));
    await admin`truncate limit_probe`;
  });
  afterAll(async () => {
    await admin.end({ timeout: 1 });
  });

  /** A pool with the app's client-side limits, and no server-side ones (the server "never answers"). */
  function guardedPool(limits: Partial<DatabaseTimeouts>, max = 2): Sql {
    const pool = postgres(url!, { max, onnotice: () => {} });
    const terminator = postgres(url!, { max: 1, onnotice: () => {} });
    clients.push(pool, terminator);
    const timeouts = { statementMs: 0, idleInTransactionMs: 0, queryMs: 0, transactionMs: 0, ...limits };
    return withClientTimeouts(pool, timeouts, (pid) => terminator`select pg_terminate_backend(${pid})`);
  }

  async function backendsRunning(text: string): Promise<number> {
    const [row] = await admin<{ n: number }[]>`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and pid <> pg_backend_pid() and query like ${`%${text}%`} and state <> 'idle'`;
    return row!.n;
  }

  it("opens sessions with the app's settings (JIT off)", async () => {
    const pool = postgres(url!, postgresClientOptions({}));
    clients.push(pool);
    expect(await pool.unsafe("select current_setting('jit') as jit, current_setting('application_name') as name")).toEqual([{ jit: "off", name: "sendstream" }]);
  });

  it("fails a query the server does not answer in time, ends its backend, and keeps the pool usable", async () => {
    const sql = guardedPool({ queryMs: 300 });
    await expect(sql.unsafe("select pg_sleep(30) as never_answered")).rejects.toMatchObject({ code: "DATABASE_TIMEOUT" });
    await expect.poll(() => backendsRunning("never_answered"), { timeout: 10_000 }).toBe(0);
    expect(await sql.unsafe("select 1 as one")).toEqual([{ one: 1 }]);
  });

  it("fails a transaction that runs out of time; nothing of it is committed, even a query it sends afterwards", async () => {
    const sql = guardedPool({ transactionMs: 500 });
    let later: unknown = "not run";
    await expect(
      sql.begin(async (tx) => {
        await tx.unsafe("insert into limit_probe (id) values (1)");
        await new Promise((resolve) => setTimeout(resolve, 1_000));
        later = await tx.unsafe("insert into limit_probe (id) values (2)").then(
          () => "ran",
          (error: { code?: string }) => error.code,
        );
      }),
    ).rejects.toMatchObject({ code: "DATABASE_TIMEOUT" });
    await expect.poll(() => later, { timeout: 5_000 }).not.toBe("not run");
    expect(later).toBe("DATABASE_TIMEOUT");

    // A query in flight at the deadline has its backend ended: the transaction cannot commit later.
    await expect(
      sql.begin(async (tx) => {
        await tx.unsafe("insert into limit_probe (id) values (3)");
        await tx.unsafe("select pg_sleep(30) as stuck_in_transaction");
      }),
    ).rejects.toMatchObject({ code: "DATABASE_TIMEOUT" });
    await expect.poll(() => backendsRunning("stuck_in_transaction"), { timeout: 10_000 }).toBe(0);
    expect(await admin`select id from limit_probe`).toEqual([]);
    expect(await sql.unsafe("select 1 as one")).toEqual([{ one: 1 }]);
  });

  it("the app's database: the server cancels a long statement and ends a transaction left idle", async () => {
    const saved = { ...process.env };
    try {
      await closeDb();
      process.env.DATABASE_STATEMENT_TIMEOUT_MS = "300";
      process.env.DATABASE_IDLE_IN_TRANSACTION_TIMEOUT_MS = "300";
      const db = await getDb();
      await expect(db.execute(drizzleSql`select pg_sleep(10)`)).rejects.toMatchObject({ cause: { code: "57014" } });
      // A COPY (paced by its reader or its writer) may outlast the limit; the session has it back afterwards.
      const pool = postgres(url!, postgresClientOptions());
      clients.push(pool);
      const copy = await pool.unsafe(`${COPY_WITHOUT_STATEMENT_TIMEOUT}copy (select g::text || pg_sleep(0.25)::text from generate_series(1, 3) g) to stdout`).readable();
      let output = "";
      for await (const chunk of copy) output += String(chunk);
      expect(output).toBe("1\n2\n3\n");
      expect(await pool`show statement_timeout`).toEqual([{ statement_timeout: "300ms" }]);
      let later: unknown = "not run";
      await expect(
        db.transaction(async (tx) => {
          await tx.execute(drizzleSql`insert into limit_probe (id) values (4)`);
          await new Promise((resolve) => setTimeout(resolve, 1_000));
          later = await tx.execute(drizzleSql`insert into limit_probe (id) values (5)`).then(
            () => "ran",
            (error: { cause?: { code?: string }; code?: string }) => error.cause?.code ?? error.code,
          );
        }),
      ).rejects.toThrow();
      // Another request's query meanwhile reconnects the pool's connection: the transaction's later
      // insert must not run on it, outside the transaction.
      await db.execute(drizzleSql`select 1`);
      await expect.poll(() => later, { timeout: 5_000 }).not.toBe("not run");
      expect(later).toBe("CONNECTION_CLOSED");
      expect(await admin`select id from limit_probe`).toEqual([]);
    } finally {
      await closeDb();
      process.env = saved;
    }
  });
});
