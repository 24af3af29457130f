import fs from "node:fs";
import path from "node:path";
import * as schema from "./schema";
import type { DB } from "./types";

export type { DB, Executor } from "./types";

export const migrationsFolder = path.join(process.cwd(), "db", "migrations");

interface DbState {
  db?: Promise<DB>;
  close?: () => Promise<void>;
  /** Run before the connections end: a connection reserved out of the pool holds the pool's end up until it is released. */
  beforeClose?: (() => Promise<void>)[];
  /** Set for an in-memory database: empties it for reuse (`emptyMemoryDb`). */
  empty?: () => Promise<void>;
}

// Next.js loads server modules in more than one module graph per process (and again on hot
// reload); a module-level variable would open the embedded database twice and corrupt it.
const state = ((globalThis as { __sendstreamDb?: DbState }).__sendstreamDb ??= {});

export function isEmbedded(): boolean {
  return !process.env.DATABASE_URL;
}

export function embeddedDataDir(): string {
  return process.env.PGLITE_DIR ?? path.join(process.cwd(), ".data", "pglite");
}

export function getDb(): Promise<DB> {
  state.db ??= open().catch((error: unknown) => {
    state.db = undefined;
    throw error;
  });
  return state.db;
}

export async function closeDb(): Promise<void> {
  const close = state.close;
  const beforeClose = state.beforeClose ?? [];
  state.db = undefined;
  state.close = undefined;
  state.beforeClose = undefined;
  state.empty = undefined;
  await settledWithin(Promise.all(beforeClose.map((release) => release().catch(() => {}))), CLOSE_STEP_LIMIT_MS);
  await settledWithin(close?.(), CLOSE_STEP_LIMIT_MS);
}

/**
 * How long each step of `closeDb` may take. postgres.js can leave a reserved connection's query, or
 * `end()` itself, unsettled after the server ended the connection (porsager/postgres #1097, #1195):
 * a shutdown, or the next test file, must not wait for it forever.
 */
const CLOSE_STEP_LIMIT_MS = 10_000;

/** Waits for `work` (its failure included) at most `ms`. */
async function settledWithin(work: Promise<unknown> | undefined, ms: number): Promise<void> {
  if (!work) return;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([work.catch(() => {}), new Promise<void>((resolve) => (timer = setTimeout(resolve, ms)))]);
  clearTimeout(timer);
}

/**
 * Empties the open in-memory database (`memory://`) and keeps it open for its next user: every row
 * gone, sequences restarted, session settings and listeners reset. Session advisory locks stay: the
 * process's claim owner (lib/messaging/owner.ts) holds one on this connection while it is open. A
 * test file gets a clean database this way for a fraction of loading the migrated snapshot again
 * (about a second of CPU each). False, with nothing done, when no in-memory database is open; when
 * emptying it fails, it is closed (the next `getDb` loads a fresh one) and the error thrown.
 */
export async function emptyMemoryDb(): Promise<boolean> {
  const empty = state.empty;
  if (!empty || !state.db) return false;
  try {
    await empty();
    return true;
  } catch (error) {
    await closeDb();
    throw error;
  }
}

/** Runs `release` when the database closes, before its connections end (e.g. giving back a reserved connection). */
export function beforeCloseDb(release: () => Promise<void>): void {
  (state.beforeClose ??= []).push(release);
}

async function open(): Promise<DB> {
  if (process.env.DATABASE_URL) return openPostgres(process.env.DATABASE_URL);
  if (process.env.VERCEL) {
    throw new Error(
      "DATABASE_URL is not set. On Vercel the embedded database cannot be used: add a Postgres database " +
        "(for example Vercel Postgres or Neon) and set DATABASE_URL in the project's environment variables.",
    );
  }
  return openEmbedded(embeddedDataDir());
}

async function openPostgres(url: string): Promise<DB> {
  const { default: postgres } = await import("postgres");
  const { drizzle } = await import("drizzle-orm/postgres-js");
  const { databaseTimeouts, postgresClientOptions, withClientTimeouts } = await import("./postgres-client");
  const options = postgresClientOptions();
  const pool = postgres(url, options);
  // Its own connection, so it still gets through when every pool connection is stuck.
  let terminator: ReturnType<typeof postgres> | undefined;
  const terminate = (pid: number) => {
    terminator ??= postgres(url, { ...options, max: 1, idle_timeout: 60 });
    return terminator`select pg_terminate_backend(${pid})`;
  };
  const client = withClientTimeouts(pool, databaseTimeouts(), terminate);
  state.close = async () => {
    await Promise.all([pool.end({ timeout: 5 }), terminator?.end({ timeout: 1 })]);
  };
  return drizzle(client, { schema }) as unknown as DB;
}

async function openEmbedded(dir: string): Promise<DB> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle } = await import("drizzle-orm/pglite");
  const inMemory = dir.startsWith("memory://");
  let releaseLock = () => {};
  if (!inMemory) {
    fs.mkdirSync(dir, { recursive: true });
    releaseLock = acquireLock(dir);
  }
  try {
    const extensions = await pgliteExtensions();
    const client = await PGlite.create(inMemory ? { loadDataDir: memorySnapshot(), extensions } : { dataDir: dir, extensions });
    const db = drizzle(client, { schema }) as unknown as DB;
    state.close = async () => {
      await client.close();
      releaseLock();
    };
    if (inMemory) state.empty = () => emptyPglite(client);
    await migrate(db);
    return db;
  } catch (error) {
    releaseLock();
    throw error;
  }
}

async function emptyPglite(client: { query<T>(sql: string): Promise<{ rows: T[] }>; exec(sql: string): Promise<unknown> }): Promise<void> {
  const { rows } = await client.query<{ name: string }>(
    "select format('%I.%I', schemaname, tablename) as name from pg_tables where schemaname = 'public'",
  );
  const tables = rows.map((row) => row.name).join(", ");
  await client.exec(`reset all; unlisten *;${tables ? ` truncate ${tables} restart identity cascade;` : ""}`);
}

/** The Postgres extensions the migrations create (pg_trgm: the logs' phone search), loaded into every embedded database. */
export async function pgliteExtensions() {
  const { pg_trgm } = await import("@electric-sql/pglite/contrib/pg_trgm");
  return { pg_trgm };
}

/**
 * An in-memory database can start from a migrated snapshot (`PGLITE_MEMORY_SNAPSHOT`, a data dir
 * dump): the test suite makes one per run, which saves every test file an initdb and the migrations.
 */
function memorySnapshot(): Blob | undefined {
  const file = process.env.PGLITE_MEMORY_SNAPSHOT;
  return file ? new Blob([fs.readFileSync(file)]) : undefined;
}

export async function migrate(db: DB): Promise<void> {
  if (process.env.DATABASE_URL) {
    const { migrate: run } = await import("drizzle-orm/postgres-js/migrator");
    await run(db as never, { migrationsFolder });
  } else {
    const { migrate: run } = await import("drizzle-orm/pglite/migrator");
    await run(db as never, { migrationsFolder });
  }
}

/**
 * The embedded database is single-process: a second process opening the same folder corrupts it.
 * A pid file beside the data folder turns that into a clear error instead.
 */
function acquireLock(dir: string): () => void {
  const lockFile = `${dir.replace(/\/+$/, "")}.lock`;
  try {
    const holder = Number(fs.readFileSync(lockFile, "utf8").trim());
    if (holder && holder !== process.pid && isAlive(holder)) {
      throw new Error(
        `The embedded database at ${dir} is in use by another process (pid ${holder}). ` +
          "Stop that process, point PGLITE_DIR at another folder, or set DATABASE_URL to use Postgres.",
      );
    }
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "ENOENT") throw error;
  }
  fs.writeFileSync(lockFile, String(process.pid));
  const release = () => {
    try {
      if (fs.readFileSync(lockFile, "utf8").trim() === String(process.pid)) fs.unlinkSync(lockFile);
    } catch {
      // already gone
    }
  };
  process.once("exit", release);
  return release;
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}
