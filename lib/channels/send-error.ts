// A send failure a channel decided itself (missing credentials, an unusable answer, …): it carries
// its classification, so every channel's `classifyError` passes it through unchanged.
import type { ChannelRequestFailure, ClassifiedFailure } from "./types";

// Next.js can load a module in several module graphs per process, so `instanceof` against one
// graph's class misses errors thrown by another's; a process-wide brand recognises them all.
const CHANNEL_SEND_ERROR = Symbol.for("sendstream.ChannelSendError");

export class ChannelSendError extends Error {
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[CHANNEL_SEND_ERROR] === true;
  }
  readonly [CHANNEL_SEND_ERROR] = true;
  constructor(readonly failure: ClassifiedFailure) {
    super(failure.reason);
    this.name = "ChannelSendError";
  }
}

/** A failure no channel recognises: permanent, with the error's message. */
export function unexpectedFailure(error: unknown): ClassifiedFailure {
  return { class: "permanent", code: "internal_error", reason: `The message could not be sent: ${(error as Error)?.message ?? String(error)}` };
}

const CHANNEL_REQUEST_ERROR = Symbol.for("sendstream.ChannelRequestError");

/** A provider request other than a send (number info, template listing) failed. */
export class ChannelRequestError extends Error {
  static [Symbol.hasInstance](value: unknown): boolean {
    return typeof value === "object" && value !== null && (value as Record<symbol, unknown>)[CHANNEL_REQUEST_ERROR] === true;
  }
  readonly [CHANNEL_REQUEST_ERROR] = true;
  constructor(readonly failure: ChannelRequestFailure) {
    super(failure.message);
    this.name = "ChannelRequestError";
  }
}
