// Server start-up for the Node.js runtime. Kept out of instrumentation.ts, which Next.js also
// compiles for the Edge runtime: the Node.js APIs used here (process.once) made that compile warn
// on every request of `next dev`.
export async function registerNode(): Promise<void> {
  const { getEnv } = await import("./lib/env");
  const building = process.env.NEXT_PHASE === "phase-production-build";
  try {
    getEnv();
  } catch (error) {
    if (building) throw error;
    // Next.js would report the error, print "Ready" and answer every request 500: a server that
    // cannot work does not start, and says which variable to fix.
    console.error(`Sendstream cannot start. ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  }
  // The composition root: campaign kinds registered before any request, dispatch pass or seed.
  await import("./lib/engine/campaign-kinds");
  const { prepareAuthEnvironment } = await import("./lib/auth/environment");
  prepareAuthEnvironment();
  const { getDb, isEmbedded, embeddedDataDir } = await import("./db");
  if (isEmbedded()) {
    // Open (and migrate) now rather than on the first request.
    await getDb();
    console.log(`▲ Sendstream: embedded database at ${embeddedDataDir()}`);
  }
  const { DEMO_USER, seedDemoData, seedsOnStart } = await import("./db/seed");
  if (!building && seedsOnStart()) {
    await seedDemoData(await getDb());
    console.log(`▲ Sendstream: demo login ${DEMO_USER.email} / ${DEMO_USER.password}`);
  }
  // The job registry (lib/engine): drains after responses run from it. Its in-process loop runs on
  // long-running servers; Vercel uses the cron route and its dispatch chain instead.
  if (!building) {
    const { installEngine, startEngineLoop } = await import("./lib/engine");
    installEngine();
    const { chainingEnabled } = await import("./lib/jobs/chain");
    // Serverless mode (Vercel, DISPATCH_CHAIN=on) runs the registry in the dispatch chain instead.
    if (!process.env.VERCEL && !chainingEnabled() && !process.env.VITEST && process.env.DISPATCHER !== "off") startEngineLoop();
  }
  if (!building && !process.env.VITEST) {
    // Whatever requests and the database do, a signalled server is gone within the deadline. Before
    // it goes, every job run stops (the loop's and those started after responses: a dispatch pass
    // hands back what it claimed) and the request log's last buffered entries are written.
    const { installShutdownDeadline } = await import("./lib/shutdown");
    const { closeDb } = await import("./db");
    const { stopJobs } = await import("./lib/jobs/runner");
    const { flushTriggerRequests } = await import("./lib/trigger/requests");
    installShutdownDeadline({ closeDatabase: closeDb, finishFirst: () => Promise.all([stopJobs({ keepStopped: true }), flushTriggerRequests()]) });
  }
}
