import NextAuth from "next-auth";
import { authOptions } from "./options";
import { throttledSeconds } from "./sign-in-errors";

type Handler = (request: Request, context: { params: Promise<{ nextauth: string[] }> }) => Promise<Response>;

const nextAuthHandler = NextAuth(authOptions) as unknown as Handler;

/**
 * next-auth's route handler, plus `Retry-After` (and 429 for the JSON answer the sign-in form
 * asks for) when a credentials sign-in was throttled: next-auth itself can only carry the
 * `TooManyAttempts:<seconds>` error code in the URL it answers with.
 */
export const authRouteHandler: Handler = async (request, context) => withRetryAfter(request, await nextAuthHandler(request, context));

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
