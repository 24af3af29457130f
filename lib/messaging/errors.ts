// Settling failed sends, whatever the channel: how many attempts, how long between them, and the
// codes the dispatcher writes itself. Each channel classifies its own errors (lib/channels:
// `classifyError` → retryable / permanent / outcome unknown).
import type { ClassifiedFailure } from "@/lib/channels";

/** A classified send failure, as the dispatcher settles it. */
export type SendFailure = ClassifiedFailure;

/** error_code of a message whose send may or may not have reached the provider. */
export const OUTCOME_UNKNOWN_CODE = "outcome_unknown";
export const OUTCOME_UNKNOWN_REASON = "Outcome unknown — not resent to avoid a duplicate.";
/** A claimed row whose request may have left when its process stopped (killed, or its lease ran out mid-send). */
export const INTERRUPTED_SEND_REASON =
  "The sending process stopped while the request to WhatsApp may have been open; the message may have been delivered. Outcome unknown — not resent to avoid a duplicate.";
/** A bulk message its campaign's cancellation skipped. */
export const CANCELLED_CODE = "cancelled";
export const CANCELLED_REASON = "The campaign was cancelled before this message was sent.";

/** Attempts (including the first) before a retryable failure becomes permanent. */
export const MAX_SEND_ATTEMPTS = 6;
export const BACKOFF_BASE_MS = 2_000;
export const BACKOFF_CAP_MS = 5 * 60_000;

/**
 * Delay before attempt `attempts + 1`, after `attempts` tries: exponential with full jitter
 * (uniform in [0, base·2^(attempts−1)], capped), never below the error's own minimum.
 */
export function retryDelayMs(attempts: number, failure: Pick<SendFailure, "minDelayMs">, random: () => number = Math.random): number {
  const ceiling = Math.min(BACKOFF_CAP_MS, BACKOFF_BASE_MS * 2 ** Math.max(0, attempts - 1));
  const jittered = Math.floor(random() * ceiling);
  return Math.max(failure.minDelayMs ?? 250, jittered);
}
