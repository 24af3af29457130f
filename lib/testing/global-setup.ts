// Integration tests use a real database: a fresh Postgres database per run when DATABASE_URL is
// set, otherwise an in-memory embedded database per test file (see setup.ts).
import postgres from "postgres";
import { drizzle } from "drizzle-orm/postgres-js";
import { migrate } from "drizzle-orm/postgres-js/migrator";
import path from "node:path";

let cleanup: (() => Promise<void>) | undefined;

export async function setup() {
  const baseUrl = process.env.DATABASE_URL;
  if (!baseUrl) {
    console.log("Integration tests: embedded database (in memory, fresh per test file)");
    return;
  }
  const name = `sendstream_test_${Date.now()}_${Math.random().toString(36).slice(2, 8)}`;
  const admin = postgres(baseUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database "${name}"`);
  const url = new URL(baseUrl);
  url.pathname = `/${name}`;
  const client = postgres(url.toString(), { max: 1, onnotice: () => {} });
  await migrate(drizzle(client), { migrationsFolder: path.join(import.meta.dirname, "../../db/migrations") });
  await client.end();
  process.env.DATABASE_URL = url.toString();
  console.log(`Integration tests: Postgres database ${name}`);
  cleanup = async () => {
    await admin.unsafe(`drop database if exists "${name}" with (force)`);
    await admin.end();
  };
}

export async function teardown() {
  await cleanup?.();
}
