import { describe, expect, it } from "vitest";
import type { CampaignView } from "@/lib/campaigns/service";
import { bulkUpdateBody, initialSettings, settingsChanged } from "./bulk-draft";
import { rateError, scheduledInstant } from "./schedule-card";

function bulkCampaign(bulk: Partial<NonNullable<CampaignView["bulk"]>>): CampaignView {
  return {
    id: "cmp_1",
    name: "Spring",
    kind: "bulk",
    status: "draft",
    triggerConfig: { phoneField: "phone", phoneFallbacks: [], countryField: null, fields: [], example: null },
    messageConfig: { variables: [] },
    templateId: null,
    template: null,
    senderId: "snd_1",
    rateLimitPerMinute: 600,
    respectOptOut: true,
    sendPolicy: { quietHours: null, frequencyCap: null },
    journey: null,
    journeyVersion: 0,
    version: 3,
    deployedAt: null,
    bulk: {
      audience: { listIds: [], segmentIds: [] },
      sendRatePerSecond: null,
      scheduledAt: null,
      timeZone: null,
      allowTierWait: false,
      launchedAt: null,
      completedAt: null,
      scheduleMissed: false,
      ...bulk,
    },
    createdAt: "2026-11-24T00:00:00.000Z",
    updatedAt: "2026-11-24T00:00:00.000Z",
  };
}

describe("bulk builder settings", () => {
  it("reads a stored schedule back as the wall time in its zone", () => {
    const settings = initialSettings(bulkCampaign({ scheduledAt: "2026-12-01T08:00:00.000Z", timeZone: "Europe/Berlin", sendRatePerSecond: 20 }));
    expect(settings.schedule).toEqual({ mode: "later", local: "2026-12-01T09:00", timeZone: "Europe/Berlin" });
    expect(settings.rate).toBe("20");
    expect(initialSettings(bulkCampaign({})).schedule).toEqual({ mode: "now", local: "", timeZone: "" });
  });

  it("sends the audience, the rate (empty = the sender's) and the version, and sees what changed", () => {
    const saved = initialSettings(bulkCampaign({ audience: { listIds: ["lst_a"], segmentIds: [] } }));
    const edited = { ...saved, audience: { ...saved.audience, segmentIds: ["seg_b"], excludeContactsWithEmptyVariables: true }, rate: "" };
    expect(settingsChanged(saved, saved)).toBe(false);
    expect(settingsChanged(saved, edited)).toBe(true);
    expect(settingsChanged(saved, { ...saved, schedule: { mode: "later", local: "2026-12-01T09:00", timeZone: "UTC" } })).toBe(false);
    const body = bulkUpdateBody({ name: "Spring", templateId: "tpl_1", triggerConfig: { phoneField: "phone", phoneFallbacks: [], countryField: null, fields: [], example: null }, messageConfig: { variables: [{ key: "body.1", attribute: "name", fallback: null }] } }, edited, 3);
    expect(body).toEqual({
      name: "Spring",
      templateId: "tpl_1",
      messageConfig: { variables: [{ key: "body.1", attribute: "name", fallback: null }] },
      audience: { listIds: ["lst_a"], segmentIds: ["seg_b"], excludeContactsWithEmptyVariables: true },
      sendRatePerSecond: null,
      sendPolicy: { quietHours: null, frequencyCap: null },
      version: 3,
    });
    const quiet = { ...saved, sendPolicy: { quietHours: { start: "21:00", end: "08:00" }, frequencyCap: null } };
    expect(settingsChanged(saved, quiet)).toBe(true);
    expect(bulkUpdateBody({ name: "S", templateId: null, triggerConfig: { phoneField: "phone", phoneFallbacks: [], countryField: null, fields: [], example: null }, messageConfig: { variables: [] } }, { ...edited, rate: "12" }, 4).sendRatePerSecond).toBe(12);
  });

  it("keeps the rate within the sender's throughput", () => {
    expect(rateError("", 80)).toBeUndefined();
    expect(rateError("80", 80)).toBeUndefined();
    expect(rateError("81", 80)).toBe("Your sender sends at most 80 messages per second.");
    expect(rateError("0", 80)).toMatch(/at least 1/);
    expect(rateError("2.5", 80)).toMatch(/whole number/);
  });

  it("accepts only a schedule in the future", () => {
    const now = new Date("2026-11-24T02:00:00.000Z");
    expect(scheduledInstant({ mode: "later", local: "", timeZone: "UTC" }, now)).toEqual({ error: "Pick a date and time." });
    expect(scheduledInstant({ mode: "later", local: "2026-11-24T01:59", timeZone: "UTC" }, now)).toEqual({ error: "Pick a time in the future." });
    expect(scheduledInstant({ mode: "later", local: "2026-11-24T03:30", timeZone: "Europe/Lisbon" }, now)).toEqual({ instant: new Date("2026-11-24T03:30:00.000Z") });
  });
});

describe("the builder keeps the launch dialog's consent choice", () => {
  it("saving sends includeUnknownConsent back as stored, and leaves it out when it was never chosen", () => {
    const chosen = initialSettings(bulkCampaign({ audience: { listIds: ["lst_1"], segmentIds: [], includeUnknownConsent: true } }));
    expect(bulkUpdateBody({ name: "Spring", templateId: null, messageConfig: { variables: [] } } as never, chosen, 3).audience).toMatchObject({ includeUnknownConsent: true });
    const never = initialSettings(bulkCampaign({ audience: { listIds: ["lst_1"], segmentIds: [] } }));
    expect("includeUnknownConsent" in never.audience).toBe(false);
  });
});
