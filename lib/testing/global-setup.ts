// Integration tests use a real database. With DATABASE_URL: a migrated template database per run,
// copied into a fresh database for every test file (postgres-per-file.ts). Without: an embedded
// database in memory per worker, loaded from a migrated snapshot and emptied between test files (see setup.ts).
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { postgresTemplateEnvironment } from "./postgres-per-file";

let cleanup: (() => Promise<void>) | undefined;

export async function setup() {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    await makeMemorySnapshot();
    console.log("Integration tests: embedded database (in memory, loaded from a migrated snapshot, emptied between test files)");
    return;
  }
  // TEST_DATABASE_PREFIX: a caller that may be stopped before this run's teardown (CI) drops what it left by it.
  const name = `${process.env.TEST_DATABASE_PREFIX ?? "sendstream_test"}_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const client = postgres(url.toString(), { max: 1, onnotice: () => {} });
  await migrate(drizzle(client), { migrationsFolder: path.join(import.meta.dirname, "../../db/migrations") });
  await client.end();
  process.env.DATABASE_URL = url.toString();
  Object.assign(process.env, postgresTemplateEnvironment(url.toString()));
  console.log(`Integration tests: Postgres, a fresh copy of the migrated database ${name} per test file`);
  cleanup = async () => {
    // Copies a worker left (the one it made ahead for a next file, a crashed worker's), then the template;
    // then again: a copy still being made when its worker exited ends before the template can be dropped.
    const dropCopies = async () => {
      const leftovers = await admin<{ datname: string }[]>`select datname from pg_database where datname like ${`${name}_f%`}`;
      for (const { datname } of leftovers) await admin.unsafe(`drop database if exists "${datname}" with (force)`);
    };
    await dropCopies();
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await dropCopies();
    await admin.end();
  };
}

/** One migrated embedded database per run, loaded by every test file instead of initdb + migrations. */
async function makeMemorySnapshot(): Promise<void> {
  const { PGlite } = await import("@electric-sql/pglite");
  const { drizzle: pglite } = await import("drizzle-orm/pglite");
  const { migrate: migratePglite } = await import("drizzle-orm/pglite/migrator");
  const { pgliteExtensions } = await import("../../db");
  const client = await PGlite.create({ extensions: await pgliteExtensions() });
  await migratePglite(pglite(client), { migrationsFolder: path.join(import.meta.dirname, "../../db/migrations") });
  const dump = await client.dumpDataDir("none");
  await client.close();
  const dir = await mkdtemp(path.join(tmpdir(), "sendstream-test-"));
  const file = path.join(dir, "migrated.tar");
  await writeFile(file, Buffer.from(await dump.arrayBuffer()));
  process.env.PGLITE_MEMORY_SNAPSHOT = file;
  cleanup = () => rm(dir, { recursive: true, force: true });
}

export async function teardown() {
  await cleanup?.();
}
