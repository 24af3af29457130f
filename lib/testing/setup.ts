// As in Next's own server, its environment baseline comes before any of its modules: without it, the
// first test file of a worker to reach after() or a request store found no AsyncLocalStorage.
import "next/dist/server/node-environment-baseline";
import { appendFileSync } from "node:fs";
import { afterAll, beforeAll, expect } from "vitest";
import { closeDb, emptyMemoryDb, isEmbedded } from "@/db";
// The process's composition root, as at server start-up: campaign kinds registered before any test.
import "@/lib/engine/campaign-kinds";
import { installEngine } from "@/lib/engine/jobs";
import { stopJobs } from "@/lib/jobs/runner";
import { flushTriggerRequests } from "@/lib/trigger/requests";
import { createFileDatabase } from "./postgres-per-file";

if (!process.env.DATABASE_URL) process.env.PGLITE_DIR = "memory://";
// Four for the tests, one more for the claim owner's lock (lib/messaging/owner.ts), which imports and dispatch passes reserve.
process.env.DATABASE_POOL_MAX ??= "5";
// Sessions and the encryption of stored WhatsApp credentials derive their keys from it.
process.env.AUTH_SECRET ??= "test-only-secret-0123456789abcdef0123456789";

/** CI names where a hung file's setup or teardown stopped (TEST_SETUP_TRACE: a file to append to). */
const trace = (step: string) => {
  if (process.env.TEST_SETUP_TRACE) appendFileSync(process.env.TEST_SETUP_TRACE, `${new Date().toISOString()} worker ${process.pid}: ${step}\n`);
};

// Test files share a worker process (isolate: false in vitest.config.ts). What one file leaves
// behind must not reach the next: its database (every file gets an empty one: the in-memory one
// emptied, or on Postgres a fresh copy of the migrated template, made before the file is imported), its
// environment changes (a fake Graph API's address, a feature switch), and background work it
// started (a dispatch after a trigger, the buffered request log).
// The embedded database of the last file is emptied and kept instead (loading the migrated snapshot
// again costs about a second of CPU a file); any other is closed.
trace("setup: emptying or closing the last file's database");
if (!(await emptyMemoryDb().catch(() => false))) await closeDb();
trace("setup: creating this file's database");
const dropPostgresDatabase = await createFileDatabase();
// The job registry, as the server installs it at start: drains after responses run from it. The last
// file's teardown left jobs stopped until now, so no late drain of its reached a database being dropped.
installEngine();
trace(`setup: done (${process.env.DATABASE_URL?.replace(/^.*\//, "") ?? "embedded"})`);
let environmentAtStart: Record<string, string | undefined> = {};

beforeAll(() => {
  trace(`running ${expect.getState().testPath ?? "a file"}`);
  environmentAtStart = { ...process.env };
});

afterAll(async () => {
  trace("teardown: stopping jobs");
  await stopJobs({ keepStopped: true });
  trace("teardown: flushing the request log");
  await flushTriggerRequests().catch(() => {});
  trace("teardown: closing the database");
  if (!isEmbedded()) await closeDb();
  trace("teardown: dropping the database");
  await dropPostgresDatabase?.();
  trace("teardown: done");
  for (const name of Object.keys(process.env)) if (!(name in environmentAtStart)) delete process.env[name];
  Object.assign(process.env, environmentAtStart);
});
