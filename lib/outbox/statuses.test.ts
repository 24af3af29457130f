import { describe, expect, it } from "vitest";
import { messageStatuses } from "@/db/schema";
import { canAdvance, statusesBelow } from "./status";

describe("status rule", () => {
  it("moves forward along queued → sending → sent → delivered → read", () => {
    expect(canAdvance("queued", "sent")).toBe(true);
    expect(canAdvance("sent", "delivered")).toBe(true);
    expect(canAdvance("delivered", "read")).toBe(true);
    expect(canAdvance("sent", "read")).toBe(true);
  });

  it("never moves backwards and ignores duplicates", () => {
    expect(canAdvance("read", "delivered")).toBe(false);
    expect(canAdvance("delivered", "sent")).toBe(false);
    for (const status of messageStatuses) expect(canAdvance(status, status)).toBe(false);
  });

  it("failed can follow queued/sending/sent, loses to delivered/read, and delivered/read win over it", () => {
    expect(canAdvance("queued", "failed")).toBe(true);
    expect(canAdvance("sent", "failed")).toBe(true);
    expect(canAdvance("delivered", "failed")).toBe(false);
    expect(canAdvance("read", "failed")).toBe(false);
    expect(canAdvance("failed", "delivered")).toBe(true);
    expect(canAdvance("failed", "read")).toBe(true);
    expect(canAdvance("failed", "sent")).toBe(false);
  });

  it("skipped is final: no report moves it, and it is never below anything reported", () => {
    for (const status of messageStatuses) expect(canAdvance("skipped", status)).toBe(false);
    for (const report of ["sent", "delivered", "read", "failed"] as const) expect(statusesBelow(report)).not.toContain("skipped");
  });

  it("statusesBelow lists exactly the statuses a report may replace", () => {
    expect(statusesBelow("delivered").sort()).toEqual(["failed", "queued", "sending", "sent"]);
    expect(statusesBelow("failed").sort()).toEqual(["queued", "sending", "sent"]);
    expect(statusesBelow("sent").sort()).toEqual(["queued", "sending"]);
  });
});
