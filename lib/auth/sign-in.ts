import type { Executor } from "@/db/types";
import { ApiError } from "@/lib/http/errors";
import { verifyCredentials, type AccountUser } from "./accounts";
import { signInThrottledCode } from "./sign-in-errors";
import { claimEmailAttempt, countAttempt, forgiveSignIn, signInRules, signUpRules } from "./throttle";

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

/** Email and password sign-in, throttled per (email, client IP) and client IP hard, and per email softly (see throttle.ts). */
export async function authenticate(
  db: Executor,
  input: { email: string; password: string; ip: string | null },
): Promise<AccountUser | null> {
  const wait = (await countAttempt(db, signInRules(input.email, input.ip))) ?? (await claimEmailAttempt(db, input.email));
  if (wait !== null) throw new SignInThrottledError(wait);
  const user = await verifyCredentials(db, input.email, input.password);
  if (user) await forgiveSignIn(db, input.email, input.ip);
  return user;
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
