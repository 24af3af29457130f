// The lane runner's pacing on a clock of its own: every timer fires when the test moves the clock,
// so a slow in-flight mark is exactly as slow as the test says, whatever the machine's load.
import { describe, expect, it } from "vitest";
import type { ChannelSender } from "@/lib/channels";
import { createBulkPacing } from "./bulk-pacing";
import type { ClaimedMessage } from "./claims";
import type { Clock, DispatchChannels } from "./dispatch-contract";
import { createLaneRunner, type LaneRunnerDeps, type OutcomeWrites, type SentWriter } from "./lane-runner";
import { semaphore } from "./lanes";
import { createThroughputLimiter, intervalUs, lateSlotToleranceMs } from "./throughput";

const START = 1_000_000;

/** Time moves only when `run` moves it, to the next timer, once everything before it has settled. */
function manualClock() {
  let now = START;
  let seq = 0;
  const timers: { at: number; seq: number; fire: () => void }[] = [];
  const settle = () => new Promise<void>((resolve) => setImmediate(resolve));
  const clock: Clock = {
    now: () => now,
    sleep: (ms) => new Promise<void>((fire) => timers.push({ at: now + Math.max(0, ms), seq: seq++, fire })),
  };
  return {
    clock,
    async run(untilMs: number) {
      for (;;) {
        await settle();
        timers.sort((a, b) => a.at - b.at || a.seq - b.seq);
        const next = timers[0];
        if (!next || next.at > START + untilMs) return;
        timers.shift();
        now = Math.max(now, next.at);
        next.fire();
      }
    },
  };
}

/**
 * In-flight marks as in-flight.ts writes them: one statement at a time, the marks asked for while it
 * runs go out together in the next one; statement `n` takes `statementMs(n)` ms.
 */
function markStatements(clock: Clock, statementMs: (n: number) => number) {
  let waiting: (() => void)[] = [];
  let writing = false;
  let n = 0;
  const write = async () => {
    writing = true;
    while (waiting.length > 0) {
      const batch = waiting;
      waiting = [];
      await clock.sleep(statementMs(n++));
      for (const done of batch) done();
    }
    writing = false;
  };
  return {
    mark: () =>
      new Promise<boolean>((resolve) => {
        waiting.push(() => resolve(true));
        if (!writing) void write();
      }),
  };
}

function passOn(clock: Clock, marks: { mark: (message: ClaimedMessage) => Promise<boolean> }) {
  const sends: { id: string; at: number }[] = [];
  const handedBack: string[] = [];
  const tasks = new Set<Promise<void>>();
  const limiter = createThroughputLimiter();
  const unexpected = (what: string) => async () => {
    throw new Error(`unexpected: ${what}`);
  };
  const outcomes: OutcomeWrites = {
    fail: unexpected("fail"),
    markOutcomeUnknown: unexpected("markOutcomeUnknown"),
    handBack: async (items) => void handedBack.push(...items.map((m) => m.id)),
    settleStopped: unexpected("settleStopped"),
    scheduleRetry: unexpected("scheduleRetry"),
  };
  const sentWriter = { record: async () => {} } as unknown as SentWriter;
  const channel = {
    send: async (message: { id: string }) => {
      sends.push({ id: message.id, at: clock.now() });
      return { providerMessageId: `wamid.${message.id}` };
    },
    classifyError: () => {
      throw new Error("unexpected: a send failed");
    },
  };
  const deps: LaneRunnerDeps = {
    clock,
    deadline: START + 60_000,
    channels: { whatsapp: channel, sandbox: channel } as unknown as DispatchChannels,
    limiter,
    random: () => 0.5,
    maxAttempts: 5,
    inFlight: semaphore(128),
    marks: marks as LaneRunnerDeps["marks"],
    bulkPacing: createBulkPacing({ db: undefined as never, limiter, now: clock.now, settleStopped: outcomes.settleStopped }),
    outcomes,
    sentWriter,
    stopping: () => false,
    track: (task) => {
      tasks.add(task);
      void task.finally(() => tasks.delete(task));
    },
  };
  return { runner: createLaneRunner(deps), sends, handedBack };
}

const sender = (perSecond: number): ChannelSender => ({
  id: "snd_pacing",
  workspaceId: "ws_pacing",
  channel: "whatsapp",
  address: "300000001",
  accessTokenEncrypted: null,
  throughputPerSecond: perSecond,
});

const message = (i: number): ClaimedMessage => ({
  id: `msg_${String(i).padStart(3, "0")}`,
  phoneNumber: `+44791150${String(i).padStart(4, "0")}`,
  payload: {},
  attempts: 1,
  workspaceId: "ws_pacing",
  senderId: "snd_pacing",
  campaignId: "cmp_pacing",
  contactId: null,
  source: "trigger",
  errorCode: null,
  inFlightAt: null,
  providerMessageId: null,
  lease: new Date(START + 300_000),
});

/** The most sends in any 1-second window [t, t + 1000). */
const peakPerSecond = (times: number[]) => {
  const sorted = [...times].sort((a, b) => a - b);
  let peak = 0;
  let from = 0;
  for (let to = 0; to < sorted.length; to++) {
    while (sorted[to]! - sorted[from]! >= 1_000) from++;
    peak = Math.max(peak, to - from + 1);
  }
  return peak;
};

describe("a sender's lane paces the moment its requests leave", () => {
  it("a slow in-flight mark does not let a late slot's send crowd the next second (no 1-second window above the rate)", async () => {
    const { clock, run } = manualClock();
    // The first mark statement takes 120 ms (a loaded database); every other one 2 ms.
    const { runner, sends, handedBack } = passOn(clock, markStatements(clock, (n) => (n === 0 ? 120 : 2)));
    for (let i = 0; i < 40; i++) runner.enqueue(message(i), sender(20));
    await run(10_000);

    expect(handedBack).toEqual([]);
    expect(sends.map((s) => s.id).sort()).toEqual(Array.from({ length: 40 }, (_, i) => message(i).id));
    const times = sends.map((s) => s.at);
    // The provider sees no more than the rate in any second: the +5 % the reliability check allows is
    // for the network's jitter, and there is none here.
    expect(peakPerSecond(times)).toBeLessThanOrEqual(20);
    // No two requests closer than a slot apart, less the late-slot tolerance.
    const sorted = [...times].sort((a, b) => a - b);
    const closest = Math.min(...sorted.slice(1).map((t, i) => t - sorted[i]!));
    expect(closest).toBeGreaterThanOrEqual(intervalUs(20) / 1000 - lateSlotToleranceMs(20));
    // The two slots whose marks the slow statement held up are lost, no more: 40 sends in 42 slots.
    expect(Math.max(...times) - START).toBeLessThan(41 * (intervalUs(20) / 1000) + 1);
  });

  it("keeps the sender's rate when every mark is slower than the late-slot tolerance", async () => {
    const { clock, run } = manualClock();
    // Every statement takes 70 ms: longer than a slot at 20/s and than the 20 ms tolerance.
    const { runner, sends, handedBack } = passOn(clock, markStatements(clock, () => 70));
    for (let i = 0; i < 60; i++) runner.enqueue(message(i), sender(20));
    await run(20_000);

    expect(handedBack).toEqual([]);
    expect(new Set(sends.map((s) => s.id)).size).toBe(60);
    const times = sends.map((s) => s.at);
    expect(peakPerSecond(times)).toBeLessThanOrEqual(20);
    // 60 sends within 65 slots: once the marks' round trip is known they are written ahead of the
    // slots, and only the first few slots are lost.
    expect(Math.max(...times) - START).toBeLessThan(64 * (intervalUs(20) / 1000) + 1);
    const afterwards = times.filter((t) => t >= START + 1_000);
    expect(afterwards.length).toBeGreaterThanOrEqual(Math.floor((Math.max(...times) - START - 1_000) / (intervalUs(20) / 1000)));
  });
});
