// A bare dispatching process for the reliability scenarios: dispatch passes back to back against
// DATABASE_URL, sending WhatsApp messages to WHATSAPP_GRAPH_URL with a send timeout of
// RELIABILITY_SEND_TIMEOUT_MS (default: the provider's own). Several run at once to share senders.
// Each pass's summary is printed as one JSON line; SIGTERM stops claiming and exits after the pass.
const timeoutMs = process.env.RELIABILITY_SEND_TIMEOUT_MS ? Number(process.env.RELIABILITY_SEND_TIMEOUT_MS) : undefined;

async function main() {
  const { getDb, closeDb } = await import("@/db");
  const { runDispatch } = await import("@/lib/messaging/dispatcher");
  const { dispatchDependencies } = await import("@/lib/engine/jobs");
  const { defaultChannels } = await import("@/lib/channels");
  const { createWhatsAppChannel } = await import("@/lib/channels/whatsapp");
  const db = await getDb();
  const channels = { ...defaultChannels(), whatsapp: createWhatsAppChannel({ timeoutMs }) };
  const stop = new AbortController();
  process.once("SIGTERM", () => stop.abort());
  process.once("SIGINT", () => stop.abort());
  console.log(JSON.stringify({ ready: true, pid: process.pid }));
  while (!stop.signal.aborted) {
    try {
      const summary = await runDispatch({ ...dispatchDependencies(), db, channels }, { deadlineMs: 20_000, signal: stop.signal });
      if (summary.claimed > 0) console.log(JSON.stringify({ pid: process.pid, ...summary }));
      else await new Promise((resolve) => setTimeout(resolve, 250));
    } catch (error) {
      console.error(`[reliability dispatcher ${process.pid}] pass failed: ${(error as Error).message}`);
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  await closeDb();
  process.exit(0);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
