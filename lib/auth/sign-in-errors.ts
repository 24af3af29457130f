/**
 * next-auth hands sign-in failures back as an `error` code (the `?error=` of the sign-in page, or
 * `signIn()`'s result); these are the words the user sees for each.
 */
export const SIGN_IN_ERRORS = {
  credentials: "CredentialsSignin",
  oauthEmailNotVerified: "OAuthEmailNotVerified",
} as const;

export const INCORRECT_CREDENTIALS = "Incorrect email or password.";

export function signInErrorMessage(code: string | null | undefined): string {
  if (!code || code === SIGN_IN_ERRORS.credentials) return INCORRECT_CREDENTIALS;
  if (code === SIGN_IN_ERRORS.oauthEmailNotVerified) {
    return "Your sign-in provider has not verified this email address, so it cannot be used to sign in here. Verify it with the provider, or sign in with your password.";
  }
  return "Sign-in failed. Try again.";
}
