// How a failed send is classified: retry later, or fail the message now with a human reason.
// Meta says to key on the Graph error `code` (not HTTP status, not subcodes); this table is the one
// place that decides. Unknown codes are permanent: retrying a request Meta rejected for a reason we
// do not understand only repeats the rejection.
import { GraphApiError } from "@/lib/whatsapp/graph";
import { mayHaveReachedApi } from "@/lib/whatsapp/send";

export interface SendFailure {
  retryable: boolean;
  /** Stored in messages.error_code: Meta's code ("131026"), or ours ("timeout", "http_503", …). */
  code: string;
  /** Stored in messages.error_reason: what happened, in words a marketer can act on. */
  reason: string;
  /** Shortest sensible wait before a retry (e.g. the pair rate limit is one message per 6 s). */
  minDelayMs?: number;
  /** The whole sender slows down: no message of it goes out for this long (every process). */
  senderPauseMs?: number;
  /** Messages to this recipient wait at least this long. */
  recipientPauseMs?: number;
  /**
   * The request may have reached Meta (a timeout or a broken connection after it was written):
   * not retried, since WhatsApp has no idempotency key and a second request could deliver twice.
   */
  outcomeUnknown?: boolean;
}

interface CodeRule {
  retryable: boolean;
  reason: string;
  minDelayMs?: number;
  senderPauseMs?: number;
  recipientPauseMs?: number;
}

/** error_code of a message whose send may or may not have reached Meta. */
export const OUTCOME_UNKNOWN_CODE = "outcome_unknown";
export const OUTCOME_UNKNOWN_REASON = "Outcome unknown — not resent to avoid a duplicate.";
/** A claimed row whose request may have left when its process stopped (killed, or its lease ran out mid-send). */
export const INTERRUPTED_SEND_REASON =
  "The sending process stopped while the request to WhatsApp may have been open; the message may have been delivered. Outcome unknown — not resent to avoid a duplicate.";
/** A bulk message its campaign's cancellation skipped. */
export const CANCELLED_CODE = "cancelled";
export const CANCELLED_REASON = "The campaign was cancelled before this message was sent.";

export const GRAPH_ERROR_RULES: Record<number, CodeRule> = {
  // Retryable: throttling and temporary trouble on Meta's side.
  130429: { retryable: true, reason: "WhatsApp throughput limit reached for this number.", minDelayMs: 1_000, senderPauseMs: 1_000 },
  131056: { retryable: true, reason: "Too many messages to this recipient in a short time (pair rate limit).", minDelayMs: 6_000, recipientPauseMs: 6_000 },
  1: { retryable: true, reason: "WhatsApp reported an invalid request or a possible server error." },
  2: { retryable: true, reason: "WhatsApp is temporarily unavailable (downtime or overload)." },
  4: { retryable: true, reason: "The app's Graph API call limit was reached.", minDelayMs: 5_000 },
  80007: { retryable: true, reason: "The WhatsApp Business Account rate limit was reached.", minDelayMs: 5_000 },
  131000: { retryable: true, reason: "WhatsApp reported an unknown error." },
  131016: { retryable: true, reason: "The WhatsApp service is temporarily unavailable." },
  133004: { retryable: true, reason: "The WhatsApp server is temporarily unavailable." },
  131057: { retryable: true, reason: "The WhatsApp Business Account is in maintenance mode.", minDelayMs: 30_000 },
  // Permanent for this message.
  0: { retryable: false, reason: "The WhatsApp access token has expired or was invalidated. Reconnect WhatsApp in Settings." },
  190: { retryable: false, reason: "The WhatsApp access token has expired. Reconnect WhatsApp in Settings." },
  3: { retryable: false, reason: "The WhatsApp app lacks the capability to send messages. Check the app's permissions." },
  10: { retryable: false, reason: "Permission to send WhatsApp messages was not granted or was removed." },
  100: { retryable: false, reason: "WhatsApp rejected a parameter of the request (unsupported, misspelled or too long)." },
  368: { retryable: false, reason: "The WhatsApp Business Account is restricted or disabled for a policy violation." },
  130403: { retryable: false, reason: "This recipient is blocked by the business." },
  130472: { retryable: false, reason: "The recipient's number is part of a WhatsApp experiment; the message was not sent." },
  130497: { retryable: false, reason: "The business cannot send messages to users in this country." },
  131008: { retryable: false, reason: "A required template parameter is missing." },
  131009: { retryable: false, reason: "A template parameter value is invalid." },
  131026: { retryable: false, reason: "The number is not on WhatsApp or cannot receive messages (undeliverable)." },
  131031: { retryable: false, reason: "The WhatsApp Business Account is locked." },
  131042: { retryable: false, reason: "There is a payment problem with the WhatsApp Business Account." },
  131047: { retryable: false, reason: "More than 24 hours have passed since the recipient last replied; send a template." },
  131048: { retryable: false, reason: "The number is restricted because earlier messages were blocked or flagged as spam." },
  131049: { retryable: false, reason: "WhatsApp did not deliver this marketing message to keep engagement healthy; wait at least 24 hours before sending again." },
  131050: { retryable: false, reason: "The recipient has stopped marketing messages from this business." },
  131063: { retryable: false, reason: "Marketing templates are disabled for this account on the Cloud API." },
  131064: { retryable: false, reason: "Sending is limited because of template classification violations." },
  132000: { retryable: false, reason: "The number of parameters does not match the template." },
  132001: { retryable: false, reason: "The template does not exist in this language or is not approved." },
  132005: { retryable: false, reason: "The message text is too long once the variables are filled in." },
  132007: { retryable: false, reason: "The template content violates WhatsApp policy." },
  132012: { retryable: false, reason: "Template parameter values are formatted incorrectly." },
  132015: { retryable: false, reason: "The template is paused for low quality." },
  132016: { retryable: false, reason: "The template is permanently disabled." },
  132018: { retryable: false, reason: "WhatsApp found a problem with the template parameters (for example new lines, tabs or more than 4 spaces in a row)." },
};

/** Permission errors 200–299 share one rule. */
function ruleFor(code: number): CodeRule | undefined {
  if (GRAPH_ERROR_RULES[code]) return GRAPH_ERROR_RULES[code];
  if (code >= 200 && code <= 299) return GRAPH_ERROR_RULES[10];
  return undefined;
}

/** The human reason for a Meta error code (webhook `failed` statuses carry codes too). */
export function reasonForCode(code: number, metaMessage?: string | null): string {
  return ruleFor(code)?.reason ?? (metaMessage?.trim() || `WhatsApp rejected the message (error ${code}).`);
}

const SEND_ERROR = Symbol.for("sendstream.SendError");

/** A send failure that is not a Graph API answer (missing credentials, unusable response, …). */
export class SendError extends Error {
  // Recognised across module graphs, like GraphApiError.
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[SEND_ERROR] === true;
  }
  readonly [SEND_ERROR] = true;
  constructor(readonly failure: SendFailure) {
    super(failure.reason);
    this.name = "SendError";
  }
}

export function classifySendError(error: unknown): SendFailure {
  if (error instanceof SendError) return error.failure;
  if (error instanceof GraphApiError) {
    if (error.kind === "timeout" || error.kind === "network") {
      // Only a failure that certainly happened before the request reached Meta is retried.
      if (mayHaveReachedApi(error)) {
        const what = error.kind === "timeout" ? "did not answer in time" : "connection broke";
        return {
          retryable: false,
          outcomeUnknown: true,
          code: error.kind === "timeout" ? "timeout" : "network_error",
          reason: `The WhatsApp Cloud API ${what} after the message was sent; it may have been delivered.`,
        };
      }
      if (error.kind === "timeout") return { retryable: true, code: "timeout", reason: "The WhatsApp Cloud API did not answer in time." };
      return { retryable: true, code: "network_error", reason: "Could not reach the WhatsApp Cloud API." };
    }
    if (error.kind === "graph" && error.code !== null) {
      const rule = ruleFor(error.code);
      const meta = [error.message, error.details].filter(Boolean).join(" — ");
      if (rule) {
        const { retryable, reason, minDelayMs, senderPauseMs, recipientPauseMs } = rule;
        return { retryable, code: String(error.code), reason, minDelayMs, senderPauseMs, recipientPauseMs };
      }
      // Unknown Graph code: a 5xx answer is still worth retrying.
      const serverSide = (error.httpStatus ?? 0) >= 500;
      return { retryable: serverSide, code: String(error.code), reason: reasonForCode(error.code, meta) };
    }
    const status = error.httpStatus ?? 0;
    if (status >= 500 || status === 429) {
      return { retryable: true, code: `http_${status}`, reason: `The WhatsApp Cloud API answered HTTP ${status}.` };
    }
    return { retryable: false, code: `http_${status}`, reason: `The WhatsApp Cloud API answered HTTP ${status} with an unexpected body.` };
  }
  return { retryable: false, code: "internal_error", reason: `The message could not be sent: ${(error as Error)?.message ?? String(error)}` };
}

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
