import { describe, expect, it } from "vitest";
import { POLL_INTERVAL_MS, progressPollInterval, RECEIPTS_POLL_INTERVAL_MS } from "./use-progress";

const funnel = (sent: number, delivered: number) => ({ queued: 0, sent, delivered, read: 0, failed: 0, skipped: 0, replied: 0 });

describe("progressPollInterval", () => {
  it("polls fast while live, slower while a final campaign's sent messages wait for receipts, then stops", () => {
    expect(progressPollInterval("sending", funnel(3, 0))).toBe(POLL_INTERVAL_MS);
    expect(progressPollInterval("completed", funnel(4, 0))).toBe(RECEIPTS_POLL_INTERVAL_MS);
    expect(progressPollInterval("cancelled", funnel(4, 3))).toBe(RECEIPTS_POLL_INTERVAL_MS);
    expect(progressPollInterval("completed", funnel(4, 4))).toBeNull();
    expect(progressPollInterval("completed", undefined)).toBeNull();
    expect(progressPollInterval("draft", funnel(0, 0))).toBeNull();
  });
});
