// The channel registry: the one door through which the rest of the app reaches a channel. Code
// outside lib/channels imports this file and ./types only (enforced by boundary.test.ts).
import { sandboxChannel } from "./sandbox";
import type { Channel, ChannelName } from "./types";
import { whatsappChannel } from "./whatsapp";

export * from "./types";
export { ChannelRequestError, ChannelSendError } from "./send-error";
export { SANDBOX_DELIVERED_AFTER_MS, SANDBOX_READ_AFTER_MS, SANDBOX_SIMULATION_WINDOW_MS, SANDBOX_TEST_NUMBERS, SANDBOX_MESSAGE_ID_PREFIX } from "./sandbox";
export { sandboxTemplateReviewMs, sandboxTemplateVerdict, SANDBOX_WORDS_PER_VARIABLE } from "./sandbox/templates";
export { SANDBOX_MEDIA_TYPES, sandboxInboundMessage, type SandboxInbound } from "./sandbox/inbound";

const CHANNELS: Record<ChannelName, Channel> = {
  sandbox: sandboxChannel,
  whatsapp: whatsappChannel,
};

export function getChannel(name: ChannelName): Channel {
  const channel = CHANNELS[name];
  if (!channel) throw new Error(`No channel named ${String(name)}.`);
  return channel;
}

export function isChannelName(value: unknown): value is ChannelName {
  return typeof value === "string" && Object.hasOwn(CHANNELS, value);
}

/** Every channel by name (a dispatch pass takes this, or fakes of it in tests). */
export function defaultChannels(): Record<ChannelName, Channel> {
  return { ...CHANNELS };
}
