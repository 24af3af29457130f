import { ApiError } from "@/lib/http/errors";
import { constantTimeEqual } from "@/lib/crypto/constant-time";

/**
 * Checks `Authorization: Bearer <CRON_SECRET>` (what Vercel Cron sends) in constant time.
 * Throws 503 when no secret is configured (the route must not be open) and 401 otherwise.
 */
export function assertCronAuthorized(authorization: string | null, secret: string | undefined): void {
  if (!secret) {
    throw new ApiError("cron_not_configured", "Set CRON_SECRET to enable this endpoint.");
  }
  const presented = /^Bearer\s+(.+)$/i.exec(authorization?.trim() ?? "")?.[1] ?? "";
  if (!constantTimeEqual(presented, secret)) {
    throw new ApiError(
      "unauthenticated",
      "Send Authorization: Bearer <CRON_SECRET>.",
      { headers: { "WWW-Authenticate": 'Bearer realm="sendstream-cron"' } },
    );
  }
}
