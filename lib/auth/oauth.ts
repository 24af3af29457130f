import { SIGN_IN_ERRORS } from "./sign-in-errors";

/**
 * OAuth sign-in is matched to accounts by email, so an email the provider has not verified would
 * let anyone who types a victim's address into their GitHub or Google account take over the
 * victim's Sendstream account (or claim the address before its owner signs up). Only an email the
 * provider vouches for is used at all.
 */
export class OAuthEmailNotVerifiedError extends Error {
  constructor() {
    super(SIGN_IN_ERRORS.oauthEmailNotVerified);
    this.name = "OAuthEmailNotVerifiedError";
  }
}

type Profile = Record<string, unknown> | null | undefined;

/** The provider-verified email of an OAuth profile (lowercased), or null when it is not known to be verified. */
export function verifiedOAuthEmail(provider: string, profile: Profile): string | null {
  const email = profile?.email;
  if (typeof email !== "string" || !email.includes("@")) return null;
  // Google's OpenID claim, and the flag githubProfileWithVerifiedEmail sets from GitHub's email list.
  if ((provider === "google" || provider === "github") && profile?.email_verified === true) return email.trim().toLowerCase();
  return null;
}

export interface GitHubEmail {
  email: string;
  primary: boolean;
  verified: boolean;
}

/**
 * GitHub's /user profile has a public email but not whether it is verified; /user/emails (scope
 * `user:email`, which next-auth asks for) has both. Uses the primary email, and marks the profile
 * `email_verified` only when GitHub verified it; without the list nothing is verified.
 */
export function githubProfileWithVerifiedEmail<P extends Record<string, unknown>>(profile: P, emails: GitHubEmail[] | null): P {
  const primary = emails?.find((entry) => entry.primary);
  if (!primary) return { ...profile, email_verified: false };
  return { ...profile, email: primary.email, email_verified: primary.verified === true };
}

export async function fetchGitHubEmails(accessToken: string, fetchImpl: typeof fetch = fetch): Promise<GitHubEmail[] | null> {
  try {
    const response = await fetchImpl("https://api.github.com/user/emails", {
      headers: { Authorization: `Bearer ${accessToken}`, Accept: "application/vnd.github+json", "User-Agent": "Sendstream" },
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) return null;
    const body: unknown = await response.json();
    return Array.isArray(body) ? (body as GitHubEmail[]) : null;
  } catch {
    return null;
  }
}
