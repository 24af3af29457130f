import { describe, expect, it } from "vitest";
import { createLane, DepartureWindow } from "./lanes";
import { createThroughputLimiter } from "./throughput";

/** Lets requests leave through the window at the asked moments (each as soon as it allows); returns when each left. */
function depart(window: DepartureWindow, perSecond: number, asked: number[]): number[] {
  const left: number[] = [];
  for (const at of asked) {
    let when = at;
    for (let wait = window.waitMs(perSecond, when); wait > 0; wait = window.waitMs(perSecond, when)) when += wait;
    window.record(perSecond, when);
    left.push(when);
  }
  return left;
}

const peakPerSecond = (times: number[]) => Math.max(...times.map((t) => times.filter((u) => u >= t && u < t + 1_000).length));

describe("a lane's departure window", () => {
  it("lets requests leave at once while the last second holds fewer than the rate", () => {
    const window = new DepartureWindow();
    expect(depart(window, 5, [0, 10, 20, 30, 40])).toEqual([0, 10, 20, 30, 40]);
  });

  it("holds a burst (marks that came back together) to the rate in every 1-second window", () => {
    const window = new DepartureWindow();
    // 10/s for two seconds, then 30 requests freed at once at 2.5 s.
    const asked = [...Array.from({ length: 20 }, (_, i) => i * 100), ...Array.from({ length: 30 }, () => 2_500)];
    const left = depart(window, 10, asked);
    expect(peakPerSecond(left)).toBe(10);
    // Nothing is dropped, and nothing waits longer than the rate requires.
    expect(left).toHaveLength(50);
    expect(left.at(-1)).toBe(4_900);
  });

  it("follows a change of rate, keeping the latest departures", () => {
    const window = new DepartureWindow();
    depart(window, 4, [0, 100, 200, 300]);
    expect(window.waitMs(4, 400)).toBe(600);
    // Down to 2/s: the two latest (200, 300) count.
    expect(window.waitMs(2, 400)).toBe(800);
    // Up to 6/s: room again, for four more (the two kept, 200 and 300, still count).
    expect(window.waitMs(6, 400)).toBe(0);
    expect(depart(window, 6, [400, 450, 500, 550, 600])).toEqual([400, 450, 500, 550, 1_200]);
  });

  it("never asks for more than a second's wait, even when the clock went back", () => {
    const window = new DepartureWindow();
    depart(window, 2, [60_000, 60_100]);
    expect(window.waitMs(2, 0)).toBe(1_000);
  });

  it("is one per sender in the process: the lanes of two passes on one number share it", () => {
    const sender = { id: `snd_${Math.random()}`, workspaceId: "ws_x", channel: "sandbox" as const, address: null, accessTokenEncrypted: null, throughputPerSecond: 2 };
    const first = createLane(sender, createThroughputLimiter());
    const second = createLane(sender, createThroughputLimiter());
    first.departures.record(2, 0);
    second.departures.record(2, 100);
    expect(first.departures.waitMs(2, 200)).toBe(800);
    expect(createLane({ ...sender, id: `${sender.id}_other` }, createThroughputLimiter()).departures.waitMs(2, 200)).toBe(0);
  });
});
