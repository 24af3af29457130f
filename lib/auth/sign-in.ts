import type { Executor } from "@/db/types";
import { ApiError } from "@/lib/http/errors";
import { verifyCredentials, type AccountUser } from "./accounts";
import { signInThrottledCode } from "./sign-in-errors";
import { claimEmailAttempt, countAttempt, forgiveSignIn, knownDeviceRule, signInRules, signUpRules } from "./throttle";

/**
 * Thrown by a throttled sign-in. next-auth passes the message back to the sign-in form as the
 * `error` code, which carries the wait in seconds.
 */
export class SignInThrottledError extends Error {
  constructor(readonly retryAfterSeconds: number) {
    super(signInThrottledCode(retryAfterSeconds));
    this.name = "SignInThrottledError";
  }
}

/**
 * Email and password sign-in, throttled per (email, client IP) and client IP hard, and per email
 * softly, or per (email, device) for a known device (see throttle.ts).
 */
export async function authenticate(
  db: Executor,
  input: { email: string; password: string; ip: string | null; knownDeviceId?: string | null },
): Promise<AccountUser | null> {
  const wait = (await countAttempt(db, signInRules(input.email, input.ip))) ?? (await emailWait(db, input.email, input.knownDeviceId ?? null));
  if (wait !== null) throw new SignInThrottledError(wait);
  const user = await verifyCredentials(db, input.email, input.password);
  if (user) await forgiveSignIn(db, input.email, input.ip, input.knownDeviceId ?? null);
  return user;
}

/** A known device within its own allowance skips the per-email delay; any other attempt waits for it. */
async function emailWait(db: Executor, email: string, knownDeviceId: string | null): Promise<number | null> {
  if (knownDeviceId && (await countAttempt(db, [knownDeviceRule(email, knownDeviceId)])) === null) return null;
  return claimEmailAttempt(db, email);
}

/** Counts a sign-up against the client's hourly allowance; 429 with Retry-After past it. */
export async function assertSignUpAllowed(db: Executor, ip: string | null): Promise<void> {
  const wait = await countAttempt(db, signUpRules(ip));
  if (wait === null) return;
  const minutes = Math.ceil(wait / 60);
  throw new ApiError("rate_limited", `Too many sign-ups from this network. Try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`, {
    headers: { "Retry-After": String(wait) },
  });
}
