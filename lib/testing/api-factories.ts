// Test helpers for the /api/v1 routes: an account with a real API key, and a caller for route handlers.
import { encode } from "next-auth/jwt";
import { getDb } from "@/db";
import { createApiKey } from "@/lib/api-keys/service";
import type { NextRouteHandler } from "@/lib/routing/route";
import { createTestAccount } from "./factories";

export interface ApiAccount {
  userId: string;
  workspaceId: string;
  /** The full `ss_` key. */
  key: string;
}

export async function createApiAccount(): Promise<ApiAccount> {
  const account = await createTestAccount();
  const { key } = await createApiKey(await getDb(), account.workspaceId, { userId: account.id, ip: null, userAgent: null }, { name: "Test integration" });
  return { userId: account.id, workspaceId: account.workspaceId, key };
}

/** A real next-auth session cookie for the account's user, as the browser would send it after sign-in. */
export async function sessionCookie(account: { userId: string; workspaceId: string; email?: string; name?: string; sessionVersion?: number }): Promise<string> {
  const token = await encode({
    token: {
      sub: account.userId,
      workspaceId: account.workspaceId,
      email: account.email ?? "user@example.test",
      name: account.name ?? "Test User",
      sessionVersion: account.sessionVersion ?? 0,
    },
    secret: process.env.AUTH_SECRET!,
  });
  return `next-auth.session-token=${token}`;
}

/** The headers a same-origin fetch from the web app carries. */
export const SAME_ORIGIN = { origin: "http://localhost", "sec-fetch-site": "same-origin" } as const;

export interface CallOptions {
  key?: string | null;
  /** A session cookie (see `sessionCookie`); sent as the `cookie` header. */
  cookie?: string;
  params?: Record<string, string>;
  /** An object is sent as JSON; a string is sent as it is. */
  body?: unknown;
  headers?: Record<string, string>;
}

export interface CallResult<T = Record<string, unknown>> {
  status: number;
  headers: Headers;
  body: T;
}

/** Calls an exported route handler as Next would, with the key in `x-api-key`. */
export async function callRoute<T = Record<string, unknown>>(
  handler: NextRouteHandler,
  method: string,
  url: string,
  options: CallOptions = {},
): Promise<CallResult<T>> {
  const headers: Record<string, string> = {
    ...(options.key ? { "x-api-key": options.key } : {}),
    ...(options.cookie ? { cookie: options.cookie } : {}),
    ...options.headers,
  };
  let body: string | undefined;
  if (options.body !== undefined) {
    body = typeof options.body === "string" ? options.body : JSON.stringify(options.body);
    headers["content-type"] ??= "application/json";
  }
  const response = await handler(new Request(`http://localhost${url}`, { method, headers, body }), { params: Promise.resolve(options.params ?? {}) });
  const text = await response.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // Not JSON (CSV, empty); keep the text.
  }
  return { status: response.status, headers: response.headers, body: parsed as T };
}
