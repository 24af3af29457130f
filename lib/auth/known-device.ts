// Known devices: a browser that has signed in to an account gets a signed cookie naming that
// account's email and a random device id. Its later sign-ins skip the per-email delay (which
// anyone anywhere can run up by typing wrong passwords for the email) and are limited per
// (email, device) instead, so an owner signing in from their usual browser is never slowed by an
// attack on their email. A cookie for another email, a forged or a used-up one counts for nothing.
import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";

export const KNOWN_DEVICE_COOKIE = "sendstream-known-device";
export const KNOWN_DEVICE_MAX_AGE_SECONDS = 180 * 24 * 3600;
/** Only the credentials callback reads it. */
const COOKIE_PATH = "/api/auth/callback/credentials";

function signature(email: string, deviceId: string, secret: string): Buffer {
  return createHmac("sha256", secret).update(`known-device\0${email.toLowerCase()}\0${deviceId}`).digest();
}

/** The `Set-Cookie` value marking this browser as a known device of `email`. */
export function knownDeviceCookie(email: string, secret: string, secure: boolean): string {
  const deviceId = randomBytes(16).toString("base64url");
  const value = `${deviceId}.${signature(email, deviceId, secret).toString("base64url")}`;
  return `${KNOWN_DEVICE_COOKIE}=${value}; Path=${COOKIE_PATH}; HttpOnly; SameSite=Lax; Max-Age=${KNOWN_DEVICE_MAX_AGE_SECONDS}${secure ? "; Secure" : ""}`;
}

/** The device id of a request's known-device cookie when it was issued for `email`; null otherwise. */
export function knownDeviceId(cookieHeader: string | null | undefined, email: string, secret: string): string | null {
  const raw = cookieHeader
    ?.split(";")
    .map((part) => part.trim())
    .find((part) => part.startsWith(`${KNOWN_DEVICE_COOKIE}=`))
    ?.slice(KNOWN_DEVICE_COOKIE.length + 1);
  const match = raw ? /^([A-Za-z0-9_-]{22})\.([A-Za-z0-9_-]{43})$/.exec(raw) : null;
  if (!match) return null;
  const [, deviceId, given] = match as unknown as [string, string, string];
  const expected = signature(email, deviceId, secret);
  const presented = Buffer.from(given, "base64url");
  return presented.length === expected.length && timingSafeEqual(presented, expected) ? deviceId : null;
}
