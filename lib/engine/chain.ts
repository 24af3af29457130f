// The cron route's calls, composed: a plain pass over the whole registry (Vercel Cron's GET, any
// scheduler), and, in serverless mode, a hop of the dispatch chain (lib/jobs/chain.ts).
import { acceptChainCall, chainingEnabled, chainOrigin, functionTimeLimitMs, httpHopRequester, startChainIfDue, type ChainCallAnswer } from "@/lib/jobs/chain";
import type { JobsSummary } from "@/lib/jobs/types";
import { runCronJobs } from "./cron";
import { installEngine } from "./jobs";

/** Every job once, side by side; then, in serverless mode, a chain if work is left and none runs. */
export async function runCronCall(requestOrigin: string): Promise<JobsSummary & { chain?: string }> {
  const summary = await runCronJobs();
  if (!chainingEnabled()) return summary;
  return { ...summary, chain: await startChainIfDue({ requestHop: httpHopRequester(chainOrigin(requestOrigin)) }) };
}

export interface ChainCallRequest {
  /** The lease token the asking hop presented (`x-sendstream-chain`), null to start a chain. */
  previous: string | null;
  requestOrigin: string;
  startedAt: number;
  /** The route's `maxDuration` (s); `FUNCTION_TIME_LIMIT_MS` overrides it. */
  maxDurationS: number;
}

/** A hop of the chain: 202 when it took the lease and runs after the response, 200 `{ chained: false }` when a chain runs already. */
export async function answerChainCall(call: ChainCallRequest): Promise<{ status: 200 | 202; body: ChainCallAnswer }> {
  installEngine();
  const body = await acceptChainCall({
    previous: call.previous,
    startedAt: call.startedAt,
    limitMs: functionTimeLimitMs(call.maxDurationS),
    requestHop: httpHopRequester(chainOrigin(call.requestOrigin)),
  });
  return { status: body.chained ? 202 : 200, body };
}
