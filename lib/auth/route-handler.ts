import NextAuth from "next-auth";
import { knownDeviceCookie } from "./known-device";
import { authOptions } from "./options";
import { signInSchema } from "./schemas";
import { throttledSeconds } from "./sign-in-errors";

type Handler = (request: Request, context: { params: Promise<{ nextauth: string[] }> }) => Promise<Response>;

const nextAuthHandler = NextAuth(authOptions) as unknown as Handler;

/**
 * next-auth's route handler, plus `Retry-After` (and 429 for the JSON answer the sign-in form
 * asks for) when a credentials sign-in was throttled: next-auth itself can only carry the
 * `TooManyAttempts:<seconds>` error code in the URL it answers with.
 */
export const authRouteHandler: Handler = async (request, context) => {
  const signIn = isCredentialsSignIn(request) ? request.clone() : null;
  const response = await withRetryAfter(request, await nextAuthHandler(request, context));
  return signIn ? withKnownDevice(signIn, response, process.env.AUTH_SECRET!) : response;
};

function isCredentialsSignIn(request: Request): boolean {
  return request.method === "POST" && new URL(request.url).pathname.endsWith("/api/auth/callback/credentials");
}

const SESSION_COOKIE = /^(__Secure-)?next-auth\.session-token(\.\d+)?=[^;]/;

/**
 * After a successful password sign-in (next-auth set a session cookie), marks the browser as a
 * known device of the email it signed in with (see known-device.ts).
 */
export async function withKnownDevice(signIn: Request, response: Response, secret: string): Promise<Response> {
  const session = response.headers.getSetCookie().find((cookie) => SESSION_COOKIE.test(cookie));
  if (!session) return response;
  const form = await signIn.formData().catch(() => null);
  const email = signInSchema.shape.email.safeParse(form?.get("email"));
  if (!email.success) return response;
  const headers = new Headers(response.headers);
  headers.append("Set-Cookie", knownDeviceCookie(email.data, secret, session.startsWith("__Secure-")));
  return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
}

export async function withRetryAfter(request: Request, response: Response): Promise<Response> {
  let target = response.headers.get("location");
  const isJson = /^application\/json\b/.test(response.headers.get("content-type") ?? "");
  if (!target && isJson && request.method === "POST") {
    const body = (await response.clone().json().catch(() => null)) as { url?: unknown } | null;
    target = typeof body?.url === "string" ? body.url : null;
  }
  const wait = target ? throttledSeconds(errorParam(target)) : null;
  if (wait === null) return response;
  const headers = new Headers(response.headers);
  headers.set("Retry-After", String(wait));
  return new Response(response.body, { status: isJson ? 429 : response.status, headers });
}

function errorParam(url: string): string | null {
  try {
    return new URL(url, "http://localhost").searchParams.get("error");
  } catch {
    return null;
  }
}
