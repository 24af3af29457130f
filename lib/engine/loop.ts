// The in-process loop over the whole registry (`next start`, `npm run worker`). On Vercel the cron
// route runs the registry instead.
import { startJobLoop } from "@/lib/jobs/loop";
import { installEngine } from "./jobs";

/** Installs the registry and starts the loop once per process; returns a function that stops it. */
export function startEngineLoop(options: { pollMs?: number } = {}): () => Promise<void> {
  return startJobLoop(installEngine(), options);
}
