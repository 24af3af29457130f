import { describe, expect, it } from "vitest";
import { CHANNEL_NAMES, ChannelSendError, defaultChannels, getChannel, isChannelName } from "./index";

describe("the channel registry", () => {
  it("has one channel per name, each answering to its name", () => {
    for (const name of CHANNEL_NAMES) expect(getChannel(name).name).toBe(name);
    expect(Object.keys(defaultChannels()).sort()).toEqual([...CHANNEL_NAMES].sort());
    expect(isChannelName("whatsapp")).toBe(true);
    expect(isChannelName("sms")).toBe(false);
    expect(isChannelName("toString")).toBe(false);
  });

  it("every channel passes its own decided failures through and never throws while classifying", () => {
    for (const name of CHANNEL_NAMES) {
      const channel = getChannel(name);
      const failure = { class: "permanent" as const, code: "sender_not_configured", reason: "Not set up." };
      expect(channel.classifyError(new ChannelSendError(failure))).toEqual(failure);
      for (const thrown of [new Error("boom"), "text", null, undefined, { code: 131026 }]) {
        expect(channel.classifyError(thrown)).toMatchObject({ class: "permanent", code: "internal_error" });
      }
      expect(channel.limits.defaultThroughputPerSecond).toBeGreaterThan(0);
      expect(channel.limits.maxThroughputPerSecond).toBeGreaterThanOrEqual(channel.limits.defaultThroughputPerSecond);
    }
  });
});
