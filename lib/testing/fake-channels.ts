// Channels for dispatch tests: every channel sends through one scripted `send`, and what it throws
// is classified by the real channel (so a test can throw what the provider would).
import { getChannel, type Channel } from "@/lib/channels";
import type { DispatchChannels } from "@/lib/messaging/dispatch-contract";

export function fakeChannels(send: Channel["send"]): DispatchChannels {
  return {
    sandbox: { send, classifyError: getChannel("sandbox").classifyError },
    whatsapp: { send, classifyError: getChannel("whatsapp").classifyError },
  };
}
