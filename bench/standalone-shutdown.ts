// The standalone server (what the Docker image runs) sent SIGTERM in the middle of sending: it exits
// inside Docker's 10 s grace, and leaves no message claimed (what it had not sent goes back to the
// queue, or is settled as outcome unknown when its request may have left). In a database of its
// own, created (and dropped) on the server of DATABASE_URL.
//   DATABASE_URL=postgres://… [NEXT_DIST_DIR=.next] [PORT=3400] [MESSAGES=1000]
//   [GRAPH_DELAY_MS=2000: how long the fake Cloud API takes to answer each send] npx tsx bench/standalone-shutdown.ts
// Exits 1 when a check fails.
import { spawn } from "node:child_process";
import path from "node:path";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { rowsOf } from "@/db/rows";
import { startFakeGraph } from "@/lib/channels/whatsapp/testing/fake-graph";
import { ownProcess } from "./processes";
import { createWhatsAppWorkspace, queueMessages } from "./reliability-support";
import { freshDatabase, ROOT, sleep } from "./trigger-support";

const DIST_DIR = process.env.NEXT_DIST_DIR || ".next";
const PORT = Number(process.env.PORT ?? 3400);
const MESSAGES = Number(process.env.MESSAGES ?? 1000);
const GRAPH_DELAY_MS = Number(process.env.GRAPH_DELAY_MS ?? 2000);
const GRACE_MS = 10_000;
const RUN = Date.now().toString(36);

const DATABASE = `sendstream_standalone_shutdown_${process.pid}`;

async function main(): Promise<void> {
  if (!process.env.DATABASE_URL) throw new Error("Set DATABASE_URL (a Postgres server to create a database on).");
  const postgresServer = process.env.DATABASE_URL;
  process.env.DATABASE_URL = await freshDatabase(DATABASE);
  try {
    await check();
  } finally {
    const admin = postgres(postgresServer, { max: 1, onnotice: () => {} });
    await admin.unsafe(`drop database if exists "${DATABASE}" with (force)`);
    await admin.end();
  }
}

async function check(): Promise<void> {
  process.env.ENCRYPTION_KEY ??= "5d0e".repeat(16);
  const { getDb, closeDb } = await import("@/db");
  const db = await getDb();
  const ws = await createWhatsAppWorkspace({ phoneNumberId: `7${Date.now() % 1e8}`, throughput: 200 });
  await queueMessages(db, ws, MESSAGES, `+1555${Date.now() % 1e4}`);
  let answered = 0;
  const graph = await startFakeGraph(async () => {
    await sleep(GRAPH_DELAY_MS);
    return { status: 200, body: { messaging_product: "whatsapp", contacts: [{ input: "x", wa_id: "x" }], messages: [{ id: `wamid.STANDALONE.${RUN}.${++answered}` }] } };
  });

  const spawned = performance.now();
  const server = ownProcess(
    spawn("node", [path.join(ROOT, DIST_DIR, "standalone", "server.js")], {
      cwd: "/tmp",
      env: {
        ...process.env,
        PORT: String(PORT),
        HOSTNAME: "127.0.0.1",
        AUTH_SECRET: "standalone-check-secret-0123456789abcdef",
        APP_URL: `http://127.0.0.1:${PORT}`,
        WHATSAPP_GRAPH_URL: graph.url,
        DISPATCHER: "on",
      },
      stdio: ["ignore", "pipe", "pipe"],
    }),
  );
  const log: string[] = [];
  server.stdout!.on("data", (chunk: Buffer) => log.push(chunk.toString()));
  server.stderr!.on("data", (chunk: Buffer) => log.push(chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => server.once("exit", (code, signal) => resolve({ code, signal })));

  const counts = async () =>
    rowsOf<{ status: string; claimed: boolean; in_flight: boolean; n: number }>(
      await db.execute(sql`select status, claim_owner is not null as claimed, in_flight_at is not null as in_flight, count(*)::int as n
        from messages where workspace_id = ${ws.workspaceId} group by 1, 2, 3 order by 1, 2, 3`),
    );
  // Sending for a while: some sends answered, others in flight.
  const deadline = Date.now() + 60_000;
  while (answered < 20 || graph.requests.length - answered < 1) {
    if (server.exitCode !== null) throw new Error(`the server exited:\n${log.join("")}`);
    if (Date.now() > deadline) throw new Error(`no sends within 60 s (${answered} answered):\n${log.join("")}`);
    await sleep(100);
  }
  console.log(`${answered} sends answered ${Math.round(performance.now() - spawned)} ms after the server was started`);
  const before = await counts();
  const requestsAtSignal = graph.requests.length;
  const signalled = performance.now();
  server.kill("SIGTERM");
  const outcome = await Promise.race([exited, sleep(GRACE_MS).then(() => null)]);
  const tookMs = Math.round(performance.now() - signalled);
  if (!outcome) server.kill("SIGKILL");
  const after = await counts();
  await graph.close();
  await closeDb();

  console.log(`before SIGTERM (${requestsAtSignal} send requests, ${answered} answered):`, JSON.stringify(before));
  console.log(`after exit:`, JSON.stringify(after));
  const failures: string[] = [];
  if (!outcome) failures.push(`still running ${GRACE_MS / 1000} s after SIGTERM (killed)`);
  else console.log(`exited ${tookMs} ms after SIGTERM: code ${outcome.code}, signal ${outcome.signal}`);
  if (outcome && outcome.code !== 0 && outcome.code !== 143) failures.push(`exit code ${outcome.code}`);
  const stillClaimed = after.filter((row) => row.claimed && row.status === "sending").reduce((sum, row) => sum + row.n, 0);
  if (stillClaimed > 0) failures.push(`${stillClaimed} messages still claimed by the stopped server`);
  if (failures.length > 0) {
    console.error(`✗ ${failures.join("; ")}\n--- server log\n${log.join("")}`);
    process.exitCode = 1;
    return;
  }
  console.log("✓ gone inside the grace period, nothing left claimed");
  console.log(`--- server log (last lines)\n${log.join("").split("\n").slice(-8).join("\n")}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
