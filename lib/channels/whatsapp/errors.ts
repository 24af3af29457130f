// How a failed WhatsApp send is classified: retry later, fail the message now with a human reason,
// or settle it as outcome unknown. Meta says to key on the Graph error `code` (not HTTP status, not
// subcodes); this table is the one place that decides. Unknown codes are permanent: retrying a
// request Meta rejected for a reason we do not understand only repeats the rejection.
import { ChannelSendError, unexpectedFailure } from "../send-error";
import type { ClassifiedFailure, SenderTroubleKind } from "../types";
import { GraphApiError } from "./graph";
import { mayHaveReachedApi } from "./post";

interface CodeRule {
  retryable: boolean;
  reason: string;
  minDelayMs?: number;
  senderPauseMs?: number;
  recipientPauseMs?: number;
  /** The code means the sender itself cannot send (token, permissions, account). */
  senderTrouble?: SenderTroubleKind;
}

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
  0: { retryable: false, reason: "The WhatsApp access token has expired or was invalidated. Reconnect WhatsApp in Settings.", senderTrouble: "credentials" },
  190: { retryable: false, reason: "The WhatsApp access token has expired. Reconnect WhatsApp in Settings.", senderTrouble: "credentials" },
  3: { retryable: false, reason: "The WhatsApp app lacks the capability to send messages. Check the app's permissions.", senderTrouble: "credentials" },
  10: { retryable: false, reason: "Permission to send WhatsApp messages was not granted or was removed.", senderTrouble: "credentials" },
  100: { retryable: false, reason: "WhatsApp rejected a parameter of the request (unsupported, misspelled or too long)." },
  368: { retryable: false, reason: "The WhatsApp Business Account is restricted or disabled for a policy violation.", senderTrouble: "account" },
  130403: { retryable: false, reason: "This recipient is blocked by the business." },
  130472: { retryable: false, reason: "The recipient's number is part of a WhatsApp experiment; the message was not sent." },
  130497: { retryable: false, reason: "The business cannot send messages to users in this country." },
  131008: { retryable: false, reason: "A required template parameter is missing." },
  131009: { retryable: false, reason: "A template parameter value is invalid." },
  131026: { retryable: false, reason: "The number is not on WhatsApp or cannot receive messages (undeliverable)." },
  131031: { retryable: false, reason: "The WhatsApp Business Account is locked.", senderTrouble: "account" },
  131042: { retryable: false, reason: "There is a payment problem with the WhatsApp Business Account.", senderTrouble: "account" },
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

/** Our own codes (stored like Meta's) that name trouble of the sender rather than of one message. */
const OWN_SENDER_TROUBLE: Record<string, SenderTroubleKind> = {
  sender_not_configured: "setup",
  sender_credentials_unreadable: "setup",
  network_error: "connectivity",
  timeout: "connectivity",
};

/**
 * Whether a stored error code of a WhatsApp send means the sender itself cannot send, and which
 * kind of trouble that is; null for a failure of one message.
 */
export function whatsappSenderTrouble(code: string): SenderTroubleKind | null {
  if (OWN_SENDER_TROUBLE[code]) return OWN_SENDER_TROUBLE[code];
  if (/^http_(5\d\d)$/.test(code)) return "connectivity";
  if (/^http_(401|403)$/.test(code)) return "credentials";
  if (!/^\d+$/.test(code)) return null;
  return ruleFor(Number(code))?.senderTrouble ?? null;
}

const retryClass = (retryable: boolean): ClassifiedFailure["class"] => (retryable ? "retryable" : "permanent");

export function classifyWhatsAppError(error: unknown): ClassifiedFailure {
  if (error instanceof ChannelSendError) return error.failure;
  if (!(error instanceof GraphApiError)) return unexpectedFailure(error);
  if (error.kind === "timeout" || error.kind === "network") {
    const code = error.kind === "timeout" ? "timeout" : "network_error";
    // Only a failure that certainly happened before the request reached Meta is retried: WhatsApp has
    // no idempotency key, so a second request could deliver twice.
    if (mayHaveReachedApi(error)) {
      const what = error.kind === "timeout" ? "did not answer in time" : "connection broke";
      return { class: "outcome_unknown", code, reason: `The WhatsApp Cloud API ${what} after the message was sent; it may have been delivered.`, senderFault: true };
    }
    const reason = error.kind === "timeout" ? "The WhatsApp Cloud API did not answer in time." : "Could not reach the WhatsApp Cloud API.";
    return { class: "retryable", code, reason, senderFault: true };
  }
  if (error.kind === "graph" && error.code !== null) {
    const rule = ruleFor(error.code);
    const meta = [error.message, error.details].filter(Boolean).join(" — ");
    if (rule) {
      const { retryable, reason, minDelayMs, senderPauseMs, recipientPauseMs, senderTrouble } = rule;
      const failure: ClassifiedFailure = { class: retryClass(retryable), code: String(error.code), reason };
      if (minDelayMs !== undefined) failure.minDelayMs = minDelayMs;
      if (senderPauseMs !== undefined) failure.senderPauseMs = senderPauseMs;
      if (recipientPauseMs !== undefined) failure.recipientPauseMs = recipientPauseMs;
      if (senderTrouble) failure.senderFault = true;
      return failure;
    }
    // Unknown Graph code: a 5xx answer is still worth retrying.
    const serverSide = (error.httpStatus ?? 0) >= 500;
    return { class: retryClass(serverSide), code: String(error.code), reason: reasonForCode(error.code, meta) };
  }
  const status = error.httpStatus ?? 0;
  if (status >= 500 || status === 429) {
    return { class: "retryable", code: `http_${status}`, reason: `The WhatsApp Cloud API answered HTTP ${status}.`, senderFault: status >= 500 };
  }
  return { class: "permanent", code: `http_${status}`, reason: `The WhatsApp Cloud API answered HTTP ${status} with an unexpected body.`, senderFault: status === 401 || status === 403 };
}
