// `npm run worker`: the job loop alone (every job of the registry: sending, event webhooks, bulk
// snapshots, alerts), in its own process (the same loop `next start` runs in-process). Web servers then only accept (`DISPATCHER=off`), and sending scales and restarts
// apart from them. SIGTERM or SIGINT: the pass stops claiming, hands back what it holds, requests
// in flight get up to 5 s, then the database pool closes and the process exits 0.
import { closeDb, isEmbedded } from "@/db";
// The composition root: the dispatch passes launch scheduled bulk campaigns through their kind.
import "@/lib/engine/campaign-kinds";
import { getEnv } from "@/lib/env";
import { describeError } from "@/lib/logging";
import { startEngineLoop } from "./loop";

async function main(): Promise<void> {
  getEnv();
  if (isEmbedded()) {
    console.error(
      "[worker] DATABASE_URL is not set. The embedded database belongs to one process (the web server, which " +
        "dispatches in-process unless DISPATCHER=off); a separate worker needs Postgres.",
    );
    process.exit(1);
  }
  const stop = startEngineLoop();
  // The loop's timers do not hold the process open; this does, until a signal arrives.
  const keepAlive = setInterval(() => {}, 60_000);
  console.log(`[worker] dispatching (pid ${process.pid}); SIGTERM or SIGINT stops it`);

  let stopping = false;
  const shutdown = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    console.log(`[worker] ${signal}: finishing the current pass`);
    try {
      await stop();
      await closeDb();
      console.log("[worker] stopped");
    } catch (error) {
      console.error(`[worker] shutdown failed: ${describeError(error)}`);
      process.exitCode = 1;
    } finally {
      clearInterval(keepAlive);
    }
  };
  process.once("SIGTERM", (signal) => void shutdown(signal));
  process.once("SIGINT", (signal) => void shutdown(signal));
}

main().catch((error: unknown) => {
  console.error(`[worker] failed to start: ${describeError(error)}`);
  process.exit(1);
});
