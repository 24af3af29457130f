// The sandbox's inbound messages: what a contact "sends" when a user simulates a reply, built as the
// neutral InboundMessage every channel reports, so lib/inbound stores it like a real one.
import type { InboundMessage } from "@/lib/channels/types";
import { randomBase62 } from "@/lib/crypto/random";

export const SANDBOX_MEDIA_TYPES = ["image", "video", "audio", "document", "sticker"] as const;
export type SandboxMediaType = (typeof SANDBOX_MEDIA_TYPES)[number];

/** What the contact sends, one shape per kind. */
export type SandboxInbound =
  | { kind: "text"; text: string }
  | { kind: "button"; text: string; payload?: string | null }
  | { kind: "interactive"; text: string; payload?: string | null }
  | { kind: "media"; mediaType: SandboxMediaType; mimeType: string; caption?: string | null; filename?: string | null }
  | { kind: "location"; latitude: number; longitude: number; name?: string | null; address?: string | null }
  | { kind: "reaction"; emoji: string };

export interface SandboxInboundContext {
  /** The contact's number (E.164) and name. */
  from: string;
  profileName?: string | null;
  /** The provider id of the message answered (a reaction's target); a reaction needs one. */
  answers?: string | null;
  at?: Date;
}

/** An id like a real provider's, marked as the sandbox's. */
export const sandboxInboundId = () => `wamid.SANDBOX.IN.${randomBase62(20)}`;

export function sandboxInboundMessage(input: SandboxInbound, context: SandboxInboundContext): InboundMessage {
  const base: InboundMessage = {
    providerMessageId: sandboxInboundId(),
    from: context.from,
    profileName: context.profileName ?? null,
    at: context.at ?? new Date(),
    kind: input.kind,
    text: null,
    payload: null,
    media: null,
    location: null,
    reaction: null,
    contextProviderMessageId: input.kind === "reaction" ? null : (context.answers ?? null),
  };
  switch (input.kind) {
    case "text":
      return { ...base, text: input.text };
    case "button":
      // A quick-reply button's payload is its text unless the template set another one.
      return { ...base, text: input.text, payload: input.payload ?? input.text };
    case "interactive":
      return { ...base, text: input.text, payload: input.payload ?? input.text };
    case "media": {
      const caption = input.caption ?? null;
      return {
        ...base,
        text: caption,
        media: { id: `sandbox-media-${randomBase62(16)}`, mimeType: input.mimeType, caption, filename: input.filename ?? null, kind: input.mediaType },
      };
    }
    case "location":
      return { ...base, location: { latitude: input.latitude, longitude: input.longitude, name: input.name ?? null, address: input.address ?? null } };
    case "reaction":
      if (!context.answers) throw new Error("A reaction answers a message: give its provider id.");
      return { ...base, text: input.emoji || null, reaction: { emoji: input.emoji, providerMessageId: context.answers } };
  }
}
