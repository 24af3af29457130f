/**
 * next-auth hands sign-in failures back as an `error` code (the `?error=` of the sign-in page, or
 * `signIn()`'s result); these are the words the user sees for each.
 */
export const SIGN_IN_ERRORS = {
  credentials: "CredentialsSignin",
  oauthEmailNotVerified: "OAuthEmailNotVerified",
  throttled: "TooManyAttempts",
} as const;

/** `TooManyAttempts:<seconds>`: the error code of a throttled sign-in. */
export function signInThrottledCode(retryAfterSeconds: number): string {
  return `${SIGN_IN_ERRORS.throttled}:${retryAfterSeconds}`;
}

/** The seconds to wait named by a throttled sign-in's error code, or null for any other code. */
export function throttledSeconds(code: string | null | undefined): number | null {
  const match = /^TooManyAttempts:(\d{1,7})$/.exec(code ?? "");
  return match ? Number(match[1]) : null;
}

export const INCORRECT_CREDENTIALS = "Incorrect email or password.";

export function signInErrorMessage(code: string | null | undefined): string {
  if (!code || code === SIGN_IN_ERRORS.credentials) return INCORRECT_CREDENTIALS;
  const wait = throttledSeconds(code);
  if (wait !== null) {
    if (wait < 60) return `Too many attempts, try again in ${wait} second${wait === 1 ? "" : "s"}.`;
    const minutes = Math.ceil(wait / 60);
    return `Too many attempts, try again in ${minutes} minute${minutes === 1 ? "" : "s"}.`;
  }
  if (code === SIGN_IN_ERRORS.oauthEmailNotVerified) {
    return "Your sign-in provider has not verified this email address, so it cannot be used to sign in here. Verify it with the provider, or sign in with your password.";
  }
  return "Sign-in failed. Try again.";
}
