import { describe, expect, it } from "vitest";
import { contactTimeZone, quietHoursEnd } from "./quiet-hours";
import { describeSendPolicy, parseStoredSendPolicy, sendPolicySchema } from "./send-policy";

const NIGHT = { start: "21:00", end: "08:00" };
const at = (iso: string) => new Date(iso);

describe("quiet hours", () => {
  it("holds from the start minute up to, not including, the end minute (spanning midnight)", () => {
    // Europe/London in November is UTC+0.
    expect(quietHoursEnd(NIGHT, at("2026-11-25T20:59:59Z"), "Europe/London")).toBeNull();
    expect(quietHoursEnd(NIGHT, at("2026-11-25T21:00:00Z"), "Europe/London")).toEqual(at("2026-11-26T08:00:00Z"));
    expect(quietHoursEnd(NIGHT, at("2026-11-26T03:17:42Z"), "Europe/London")).toEqual(at("2026-11-26T08:00:00Z"));
    expect(quietHoursEnd(NIGHT, at("2026-11-26T07:59:59Z"), "Europe/London")).toEqual(at("2026-11-26T08:00:00Z"));
    expect(quietHoursEnd(NIGHT, at("2026-11-26T08:00:00Z"), "Europe/London")).toBeNull();
  });

  it("works in the contact's zone, and for a window inside one day", () => {
    // 21:30 in New York (UTC-5 in November) is 02:30 UTC the next day.
    expect(quietHoursEnd(NIGHT, at("2026-11-26T02:30:00Z"), "America/New_York")).toEqual(at("2026-11-26T13:00:00Z"));
    expect(quietHoursEnd(NIGHT, at("2026-11-26T02:30:00Z"), "Asia/Kolkata")).toBeNull(); // 08:00 in Kolkata
    const lunch = { start: "12:00", end: "13:30" };
    expect(quietHoursEnd(lunch, at("2026-11-25T12:45:10Z"), "UTC")).toEqual(at("2026-11-25T13:30:00Z"));
    expect(quietHoursEnd(lunch, at("2026-11-25T13:30:00Z"), "UTC")).toBeNull();
  });

  it("ends at the local end time across a daylight-saving change", () => {
    // Europe/Berlin leaves summer time on 2026-10-25 at 03:00 local (01:00 UTC).
    const end = quietHoursEnd(NIGHT, at("2026-10-24T20:00:00Z"), "Europe/Berlin"); // 22:00 CEST
    expect(end).toEqual(at("2026-10-25T07:00:00Z")); // 08:00 CET
  });
});

describe("the contact's time zone", () => {
  it("takes a valid timezone attribute, else guesses from the phone's country, else UTC", () => {
    expect(contactTimeZone("+14155552671", { timezone: "America/Los_Angeles" })).toBe("America/Los_Angeles");
    expect(contactTimeZone("+14155552671", { timezone: "Mars/Olympus" })).toBe("America/New_York");
    expect(contactTimeZone("+5511987654321", {})).toBe("America/Sao_Paulo");
    expect(contactTimeZone("+919876543210", null)).toBe("Asia/Kolkata");
    expect(contactTimeZone("+999123", null)).toBe("UTC");
  });
});

describe("the policy", () => {
  it("validates, reads stored values leniently and describes itself", () => {
    expect(sendPolicySchema.safeParse({ quietHours: { start: "21:00", end: "21:00" }, frequencyCap: null }).success).toBe(false);
    expect(sendPolicySchema.safeParse({ quietHours: { start: "9:00", end: "17:00" }, frequencyCap: null }).success).toBe(false);
    expect(sendPolicySchema.safeParse({ quietHours: null, frequencyCap: { limit: 0, periodHours: 24, scope: "campaign" } }).success).toBe(false);
    expect(parseStoredSendPolicy({ quietHours: { start: "x" }, frequencyCap: { limit: 2, periodHours: 168, scope: "workspace" } })).toEqual({
      quietHours: null,
      frequencyCap: { limit: 2, periodHours: 168, scope: "workspace" },
    });
    expect(describeSendPolicy({ quietHours: NIGHT, frequencyCap: { limit: 2, periodHours: 168, scope: "workspace" } })).toEqual([
      "No sends 21:00–08:00 in each contact's time zone",
      "At most 2 per contact per 7 days from all campaigns",
    ]);
  });
});
