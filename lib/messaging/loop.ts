// The in-process dispatch loop for long-running servers (`next start`): polls about once a second,
// drains whatever is due (new messages, retries whose time has come, expired leases), advances
// sandbox deliveries, writes the queued messages of launched bulk snapshots, delivers event webhooks, evaluates alerts and ends stuck database sessions. On Vercel the cron route does this instead. On SIGTERM/SIGINT the running
// pass stops claiming at once, hands back what it holds and gives requests in flight up to 5 s, so
// it ends well within Docker's 10 s grace (after a SIGKILL, the claims it held are taken over at once
// by the next pass of any process: owner.ts).
import { deliverWebhooksDue, dispatchDue, endStuckSessionsDue, evaluateAlertsDue, stopDispatching, writeSnapshotsDue } from "./dispatch";
import { describeError } from "@/lib/logging";

const POLL_MS = 1_000;

interface LoopState {
  stop: () => Promise<void>;
}

/** Starts the loop once per process; returns a function that stops it (and waits for the pass). */
export function startDispatchLoop(options: { pollMs?: number } = {}): () => Promise<void> {
  const global = globalThis as { __sendstreamDispatchLoop?: LoopState };
  if (global.__sendstreamDispatchLoop) return global.__sendstreamDispatchLoop.stop;
  const pollMs = options.pollMs ?? POLL_MS;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let current: Promise<void> = Promise.resolve();

  const tick = async () => {
    let busy = false;
    const webhooks = deliverWebhooksDue().catch((error: unknown) => {
      console.error(`[webhooks] delivery pass failed: ${describeError(error)}`);
      return null;
    });
    // Not awaited: a million-contact snapshot takes longer than a tick; the next ticks join it.
    void writeSnapshotsDue();
    const alerts = evaluateAlertsDue().catch((error: unknown) => {
      console.error(`[alerts] evaluation failed: ${describeError(error)}`);
    });
    const sessions = endStuckSessionsDue().catch((error: unknown) => {
      console.error(`[database] stuck-session check failed: ${describeError(error)}`);
    });
    try {
      const summary = await dispatchDue({ deadlineMs: 30_000 });
      busy = summary.claimed > 0;
    } catch (error) {
      console.error(`[dispatcher] loop pass failed: ${describeError(error)}`);
    }
    busy = ((await webhooks)?.attempted ?? 0) > 0 || busy;
    await alerts;
    await sessions;
    if (!stopped) schedule(busy ? 0 : pollMs);
  };
  const schedule = (delay: number) => {
    timer = setTimeout(() => {
      current = tick();
    }, delay);
    timer.unref();
  };

  const stop = async () => {
    stopped = true;
    clearTimeout(timer);
    process.off("SIGTERM", onSignal);
    process.off("SIGINT", onSignal);
    delete global.__sendstreamDispatchLoop;
    await Promise.all([current, stopDispatching()]);
  };
  const onSignal = () => void stop();
  process.once("SIGTERM", onSignal);
  process.once("SIGINT", onSignal);
  global.__sendstreamDispatchLoop = { stop };
  schedule(0);
  return stop;
}
