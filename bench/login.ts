// `npm run bench:login`: 16 sign-ins at once (verifyCredentials, the password check next-auth's
// authorize runs) while the event loop's delay is measured, as a stand-in for what every other
// request (/api/health) waits meanwhile. Starts no server; uses DATABASE_URL (migrated here) or a
// throwaway embedded database. Results go to bench/RESULTS.md (section "login").
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import bcrypt from "bcryptjs";
import { eq } from "drizzle-orm";
import { writeResultsSection } from "./trigger-support";

const CONCURRENCY = 16;
const TARGET_P99_MS = 50;

const throwaway = process.env.DATABASE_URL || process.env.PGLITE_DIR ? null : fs.mkdtempSync(path.join(os.tmpdir(), "sendstream-bench-login-"));
if (throwaway) process.env.PGLITE_DIR = path.join(throwaway, "pglite");

const { closeDb, getDb, migrate } = await import("@/db");
const { users } = await import("@/db/schema");
const { createAccount, verifyCredentials } = await import("@/lib/auth/accounts");
const { signUpSchema } = await import("@/lib/auth/schemas");

interface Figures {
  label: string;
  wallMs: number;
  p50: number;
  p99: number;
  max: number;
  ok: number;
}

async function measure(label: string, run: () => Promise<boolean>): Promise<Figures> {
  const histogram = monitorEventLoopDelay({ resolution: 1 });
  histogram.enable();
  const started = performance.now();
  const results = await Promise.all(Array.from({ length: CONCURRENCY }, run));
  const wallMs = performance.now() - started;
  histogram.disable();
  const ms = (ns: number) => Math.round((ns / 1e6) * 10) / 10;
  return { label, wallMs: Math.round(wallMs), p50: ms(histogram.percentile(50)), p99: ms(histogram.percentile(99)), max: ms(histogram.max), ok: results.filter(Boolean).length };
}

const db = await getDb();
if (process.env.DATABASE_URL) await migrate(db);
const password = "bench password 1";
const email = `bench-login-${Date.now()}@example.test`;
await createAccount(db, signUpSchema.parse({ name: "Bench", email, password }));

// Warm the thread pool and the database connection.
await verifyCredentials(db, email, password);

const scrypt = await measure("scrypt (thread pool), current hashes", async () => Boolean(await verifyCredentials(db, email, password)));
const legacyHash = await bcrypt.hash(password, 12);
const bcryptjs = await measure("bcryptjs cost 12 (main thread), the hashes before this change", () => bcrypt.compare(password, legacyHash));
await db.delete(users).where(eq(users.email, email));
await closeDb();
if (throwaway) fs.rmSync(throwaway, { recursive: true, force: true });

const cpu = os.cpus()[0]?.model ?? "unknown CPU";
const load = os.loadavg().map((n) => n.toFixed(1)).join(" / ");
const row = (f: Figures) => `| ${f.label} | ${f.ok}/${CONCURRENCY} | ${f.wallMs} | ${f.p50} | **${f.p99}** | ${f.max} |`;
const pass = scrypt.p99 < TARGET_P99_MS && scrypt.ok === CONCURRENCY;
const markdown = `## Sign-in hashing (\`npm run bench:login\`)

Run ${new Date().toISOString()} on ${os.cpus().length} cores (${cpu}), load average ${load}, Node ${process.version}, ${process.env.DATABASE_URL ? "Postgres" : "embedded database"}, UV_THREADPOOL_SIZE ${process.env.UV_THREADPOOL_SIZE ?? "4 (default)"}.
${CONCURRENCY} password checks at once; event-loop delay (perf_hooks.monitorEventLoopDelay, 1 ms resolution) is what any other request, such as /api/health, waits meanwhile.

| password check | succeeded | wall time ms | loop delay p50 ms | loop delay p99 ms | max ms |
|---|---|---|---|---|---|
${row(scrypt)}
${row(bcryptjs)}

Result: ${pass ? "pass" : "FAIL"} (target: p99 < ${TARGET_P99_MS} ms with the current hashes). A legacy bcrypt hash is checked with bcryptjs once more, at its owner's next sign-in, and then replaced by scrypt.`;
writeResultsSection("login", markdown);
console.log(markdown);
process.exit(pass ? 0 : 1);
