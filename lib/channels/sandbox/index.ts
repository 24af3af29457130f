// The sandbox channel: sends nothing, answers like the WhatsApp Cloud API (its failures are
// WhatsApp's, classified by the WhatsApp rules), and simulates delivery and inbound messages.
//
// Reserved test numbers (valid E.164 numbers, so the trigger endpoint accepts them) simulate the
// failure paths; every other number succeeds and then becomes delivered and read.
import { randomBase62 } from "@/lib/crypto/random";
import type { Channel } from "../types";
import { DEFAULT_THROUGHPUT_PER_SECOND, describeMessagingLimit } from "../whatsapp/business";
import { classifyWhatsAppError, whatsappSenderTrouble } from "../whatsapp/errors";
import { GraphApiError } from "../whatsapp/graph";
import { submitSandboxTemplate } from "./templates";

export const SANDBOX_TEST_NUMBERS = {
  /** Fails at once with 131026 "undeliverable" (permanent). */
  undeliverable: "+447700131026",
  /** First attempt fails with 130429 "throughput reached" (retryable); the retry succeeds. */
  throughputThenSuccess: "+447700130429",
  /** Every attempt times out (retryable) until the attempts run out and the message fails. */
  timeout: "+447700100408",
} as const;

/** Sandbox message ids start with this, so simulated delivery never touches real WhatsApp messages. */
export const SANDBOX_MESSAGE_ID_PREFIX = "wamid.SANDBOX.";
/** Simulated delivery: `delivered` this long after `sent`, `read` this long after `sent`. */
export const SANDBOX_DELIVERED_AFTER_MS = 1_000;
export const SANDBOX_READ_AFTER_MS = 3_000;
/** Sandbox messages older than this are no longer advanced (keeps the sweep on a bounded index range). */
/** Simulated deliveries look back this far (lib/outbox/sandbox-deliveries.ts). */
export const SANDBOX_SIMULATION_WINDOW_MS = 60 * 60_000;

/** An SVG that says what it is; it carries nothing the contact typed. */
function sandboxMediaPlaceholder(mediaId: string): string {
  const label = `Sandbox media ${mediaId.replace(/[^A-Za-z0-9-]/g, "").slice(-8)}`;
  return `<svg xmlns="http://www.w3.org/2000/svg" width="320" height="200" viewBox="0 0 320 200"><rect width="320" height="200" rx="12" fill="#e8eef9"/><circle cx="110" cy="80" r="22" fill="#9fb4dd"/><path d="M40 170l70-60 50 40 40-30 80 50z" fill="#7f9bd1"/><text x="160" y="190" font-family="sans-serif" font-size="12" text-anchor="middle" fill="#3d4f73">${label}</text></svg>`;
}

export const sandboxChannel: Channel = {
  name: "sandbox",
  async send(message) {
    switch (message.to) {
      case SANDBOX_TEST_NUMBERS.undeliverable:
        throw new GraphApiError({ kind: "graph", httpStatus: 400, code: 131026, message: "(#131026) Message undeliverable", details: "Sandbox test number: undeliverable." });
      case SANDBOX_TEST_NUMBERS.throughputThenSuccess:
        if (message.attempts <= 1) {
          throw new GraphApiError({ kind: "graph", httpStatus: 400, code: 130429, message: "(#130429) Rate limit hit", details: "Sandbox test number: throughput reached on the first attempt." });
        }
        break;
      case SANDBOX_TEST_NUMBERS.timeout:
        throw new GraphApiError({ kind: "timeout", message: "Sandbox test number: the request timed out." });
    }
    return { providerMessageId: `${SANDBOX_MESSAGE_ID_PREFIX}${randomBase62(24)}` };
  },
  classifyError: classifyWhatsAppError,
  senderTrouble: whatsappSenderTrouble,
  limits: { defaultThroughputPerSecond: DEFAULT_THROUGHPUT_PER_SECOND, maxThroughputPerSecond: DEFAULT_THROUGHPUT_PER_SECOND },
  // The demo templates are seeded by lib/templates (they carry the workspace's name).
  listTemplates: async () => [],
  // Stored PENDING; lib/templates settles it after the review delay with `sandboxTemplateVerdict`.
  submitTemplate: async (_sender, template) => submitSandboxTemplate(template),
  // Nothing was sent, so there are no bytes: a labelled placeholder image stands in for any media.
  downloadMedia: async (mediaId) => ({ bytes: new TextEncoder().encode(sandboxMediaPlaceholder(mediaId)), mimeType: "image/svg+xml" }),
  numberInfo: async () => ({
    displayPhoneNumber: null,
    verifiedName: "Sandbox",
    qualityRating: null,
    messagingLimit: "TIER_UNLIMITED",
    throughputLevel: null,
    throughputPerSecond: DEFAULT_THROUGHPUT_PER_SECOND,
  }),
  describeMessagingLimit,
  webhook: null,
};
