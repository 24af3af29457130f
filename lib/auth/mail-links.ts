import { getEnv } from "@/lib/env";
import { originOfRequest } from "@/lib/http/origin";

/**
 * The base of the links account mails carry (password reset, email verification): APP_URL, so a
 * forged Host header cannot point a real token at another site. Only in development does the
 * request's own origin stand in for it; null in production without APP_URL (no link is mailed).
 */
export function accountLinkBase(request: Request): string | null {
  const env = getEnv();
  const base = env.APP_URL ?? (env.NODE_ENV === "production" ? null : originOfRequest(request));
  return base ? base.replace(/\/+$/, "") : null;
}

/** A builder of `<base><path>?token=…` links for one kind of mail; null without a base. */
export function tokenLink(base: string | null, path: string): ((token: string) => string) | null {
  return base ? (token) => `${base}${path}?token=${encodeURIComponent(token)}` : null;
}
