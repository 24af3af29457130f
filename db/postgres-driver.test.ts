// The postgres.js pool under the conditions that hung requests and leaked connections: transactions
// whose BEGIN fills a connection's pipeline, COPY streams paused for backpressure, and a
// transaction's session killed by the server. Runs on Postgres only; `patches/postgres+*.patch`
// is what makes it pass (every case here hangs, crashes or corrupts on the unpatched driver).
import postgres from "postgres";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { postgresClientOptions } from "./postgres-client";

const url = process.env.DATABASE_URL;

/** Far longer than any of these queries takes on a loaded machine; the failures are forever. */
const HANG_MS = 10_000;

class Hung extends Error {}

async function settles<T>(work: PromiseLike<T>, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  try {
    return await Promise.race([
      work,
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Hung(`${what}: no answer after ${HANG_MS / 1000} s`)), HANG_MS);
      }),
    ]);
  } finally {
    clearTimeout(timer);
  }
}

type Sql = postgres.Sql;
/** `max_pipeline` is an option of postgres.js its types do not list. */
type PoolOptions = postgres.Options<Record<string, postgres.PostgresType>> & { max_pipeline?: number };

/** A pool configured as the app configures its own, with `overrides`. */
function pool(overrides: PoolOptions = {}): Sql {
  return postgres(url!, { ...postgresClientOptions(), ...overrides });
}

async function withPool<T>(overrides: PoolOptions, run: (sql: Sql) => Promise<T>): Promise<T> {
  const sql = pool(overrides);
  try {
    return await run(sql);
  } finally {
    await sql.end({ timeout: 1 });
  }
}

/** Every connection of the pool opened and idle, so new work is pipelined onto busy ones. */
async function warm(sql: Sql, connections: number) {
  await Promise.all(Array.from({ length: connections }, () => sql`select pg_sleep(0.05)`));
}

describe.skipIf(!url)("postgres.js pool", () => {
  let admin: Sql;
  let uncaught: unknown[] = [];
  const onUncaught = (error: unknown) => uncaught.push(error);

  beforeAll(async () => {
    admin = postgres(url!, { max: 1, onnotice: () => {} });
    await admin`create table if not exists driver_probe (id int primary key)`;
    process.on("uncaughtException", onUncaught);
  });

  afterAll(async () => {
    process.off("uncaughtException", onUncaught);
    await admin.end({ timeout: 1 });
  });

  async function idleInTransaction(): Promise<number> {
    const [row] = await admin<{ n: number }[]>`select count(*)::int as n from pg_stat_activity
      where datname = current_database() and state like 'idle in transaction%' and pid <> pg_backend_pid()`;
    return row!.n;
  }

  it("reserves a transaction's connection even when its BEGIN is the query that fills the pipeline", async () => {
    // Plain queries ahead of the BEGIN on one connection, around the pipeline's limit (100 by default).
    for (const [options, ahead] of [
      [{ max: 1 }, [98, 99, 100, 101]],
      [{ max: 1, max_pipeline: 2 }, [0, 1, 2, 3, 4, 5]],
    ] as [PoolOptions, number[]][]) {
      for (const count of ahead) {
        uncaught = [];
        await withPool(options, async (sql) => {
          await warm(sql, 1);
          // Sent in this order: a query goes out when awaited, `sql.begin` sends its BEGIN at once.
          const plain = Array.from({ length: count }, () => sql`select 1 as one`.execute());
          const transaction = sql.begin(async (tx) => (await tx`select 2 as two`)[0]);
          const results = await settles(Promise.allSettled([...plain, transaction]), `begin after ${count} queries`);
          expect(results.filter((result) => result.status === "rejected"), `begin after ${count} queries`).toEqual([]);
          expect(uncaught, `begin after ${count} queries`).toEqual([]);
          // The next query on that connection runs outside any transaction.
          await settles(sql`select 1`, "query after the transaction");
          expect(await idleInTransaction(), `begin after ${count} queries`).toBe(0);
        });
      }
    }
  });

  it("keeps answering concurrent transactions and plain queries at the pipeline boundary", async () => {
    await withPool({ max: 3, max_pipeline: 3 } as PoolOptions, async (sql) => {
      for (let round = 0; round < 20; round++) {
        uncaught = [];
        await warm(sql, 3);
        const work: Promise<unknown>[] = [];
        for (let i = 0; i < 24; i++) {
          work.push(
            (i + round) % 4 === 0
              ? sql.begin(async (tx) => {
                  await tx`insert into driver_probe (id) values (${round * 100 + i}) on conflict do nothing`;
                  return tx`select count(*) from driver_probe`;
                })
              : sql`select ${i}::int as i`.execute(),
          );
        }
        const results = await settles(Promise.allSettled(work), `round ${round}`);
        expect(results.filter((result) => result.status === "rejected"), `round ${round}`).toEqual([]);
        expect(uncaught, `round ${round}`).toEqual([]);
        expect(await idleInTransaction(), `round ${round}`).toBe(0);
      }
    });
  });

  it("answers the next query after a COPY whose stream ended while paused for backpressure", async () => {
    // Sizes around the stream's buffer (16 KiB): the last rows and the end of the COPY arrive in
    // the read that pauses the socket.
    for (const rows of [100, 200, 400, 1_000, 5_000]) {
      await withPool({ max: 1 }, async (sql) => {
        const source = await sql.unsafe(`copy (select repeat('x', 100) from generate_series(1, ${rows})) to stdout`).readable();
        await new Promise((resolve) => setTimeout(resolve, 200)); // nobody reads meanwhile
        let bytes = 0;
        source.on("data", (chunk: Buffer) => (bytes += chunk.length));
        await settles(new Promise((resolve) => source.on("end", resolve)), `COPY of ${rows} rows`);
        expect(bytes).toBe(rows * 101);
        await settles(sql`select 1`, `query after a COPY of ${rows} rows`);
        // The parameterised statement is parsed, described, then bound: the step that was left waiting.
        await settles(sql`select ${rows}::int as rows`, `parameterised query after a COPY of ${rows} rows`);
      });
    }
  });

  it("pipelines nothing behind a COPY whose reader has stopped reading", async () => {
    await withPool({ max: 2 }, async (sql) => {
      await warm(sql, 2);
      const source = await sql.unsafe(`copy (select repeat('x', 100) from generate_series(1, 200000)) to stdout`).readable();
      try {
        // The reader never reads: the COPY's connection stays busy. Every other query goes to the other one.
        const others: PromiseLike<unknown>[] = Array.from({ length: 8 }, (_, i) => sql`select ${i}::int as i`);
        others.push(sql.begin((tx) => tx`select 1`));
        await settles(Promise.all(others), "queries while a COPY is paused");
      } finally {
        source.destroy();
      }
      // Destroying the stream lets the rest of the COPY through (discarded): the connection comes back.
      await settles(Promise.all(Array.from({ length: 4 }, () => sql`select 1`)), "queries after the paused COPY");
    });
  });

  it("fails a transaction's later queries once the server has killed its session, instead of running them outside it", async () => {
    await admin`truncate driver_probe`;
    let later: unknown = "not run";
    await withPool({ max: 1, connection: { idle_in_transaction_session_timeout: 300 } }, async (sql) => {
      const transaction = sql.begin(async (tx) => {
        await tx`insert into driver_probe (id) values (1)`;
        await new Promise((resolve) => setTimeout(resolve, 1_000)); // idle in transaction: killed
        later = await tx`insert into driver_probe (id) values (2)`.then(
          () => "ran",
          (error: { code?: string }) => error.code,
        );
      });
      // Waiting for the pool's only connection: reconnects it once the server has closed it.
      const queued = sql`select 1`;
      await expect(settles(transaction, "the killed transaction")).rejects.toMatchObject({ code: "CONNECTION_CLOSED" });
      await settles(queued, "a query queued behind the killed transaction");
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    });
    expect(later).toBe("CONNECTION_CLOSED");
    expect(await admin`select id from driver_probe`).toEqual([]);
  });
});
