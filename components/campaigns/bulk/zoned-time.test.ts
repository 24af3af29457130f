import { describe, expect, it } from "vitest";
import { instantToZonedTime, isValidTimeZone, zonedTimeToInstant, zoneOffsetMinutes } from "./zoned-time";

describe("zoned wall times", () => {
  it("turns a wall time in a zone into the instant it names", () => {
    expect(zonedTimeToInstant("2026-11-24T09:00", "Europe/Berlin")?.toISOString()).toBe("2026-11-24T08:00:00.000Z");
    expect(zonedTimeToInstant("2026-07-01T09:00", "Europe/Berlin")?.toISOString()).toBe("2026-07-01T07:00:00.000Z");
    expect(zonedTimeToInstant("2026-11-24T09:00", "America/New_York")?.toISOString()).toBe("2026-11-24T14:00:00.000Z");
    expect(zonedTimeToInstant("2026-11-24T09:00", "Asia/Kolkata")?.toISOString()).toBe("2026-11-24T03:30:00.000Z");
    expect(zonedTimeToInstant("2026-11-24T09:00", "UTC")?.toISOString()).toBe("2026-11-24T09:00:00.000Z");
  });

  it("settles the offset across daylight-saving changes", () => {
    // Berlin leaves summer time on 2026-10-25 at 03:00 local (01:00 UTC).
    expect(zonedTimeToInstant("2026-10-25T12:00", "Europe/Berlin")?.toISOString()).toBe("2026-10-25T11:00:00.000Z");
    expect(zonedTimeToInstant("2026-10-24T12:00", "Europe/Berlin")?.toISOString()).toBe("2026-10-24T10:00:00.000Z");
    // 02:30 happens twice in Berlin that night: the first one (still summer time) is meant.
    expect(zonedTimeToInstant("2026-10-25T02:30", "Europe/Berlin")?.toISOString()).toBe("2026-10-25T00:30:00.000Z");
    // 02:30 does not exist in New York on 2026-03-08; it resolves past the jump.
    const skipped = zonedTimeToInstant("2026-03-08T02:30", "America/New_York");
    expect(skipped).not.toBeNull();
    expect(instantToZonedTime(skipped!, "America/New_York")).toBe("2026-03-08T03:30");
  });

  it("refuses impossible dates and unknown zones", () => {
    expect(zonedTimeToInstant("2026-02-30T09:00", "UTC")).toBeNull();
    expect(zonedTimeToInstant("2026-11-24T24:00", "UTC")).toBeNull();
    expect(zonedTimeToInstant("2026-11-24", "UTC")).toBeNull();
    expect(zonedTimeToInstant("2026-11-24T09:00", "Mars/Olympus")).toBeNull();
    expect(isValidTimeZone("Mars/Olympus")).toBe(false);
    expect(isValidTimeZone("Europe/Lisbon")).toBe(true);
  });

  it("round-trips an instant through a zone's wall time", () => {
    const instant = new Date("2026-11-24T22:45:00.000Z");
    expect(instantToZonedTime(instant, "Asia/Tokyo")).toBe("2026-11-25T07:45");
    expect(zonedTimeToInstant(instantToZonedTime(instant, "Asia/Tokyo"), "Asia/Tokyo")?.toISOString()).toBe(instant.toISOString());
    expect(zoneOffsetMinutes(instant, "Asia/Tokyo")).toBe(540);
  });
});
