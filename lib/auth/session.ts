import { getServerSession } from "next-auth";
import { encode, getToken } from "next-auth/jwt";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/db";
import type { MemberRole } from "@/db/schema";
import { sessionRole } from "./accounts";
import { prepareAuthEnvironment } from "./environment";
import { authOptions, SIGN_IN_PATH } from "./options";

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  workspaceId: string;
  /** The user's role in that workspace, read on every request. */
  role: MemberRole;
}

/** For pages and server components: the signed-in user of the current request, if any (read once per render). */
export const getSessionUser = cache(async (): Promise<SessionUser | null> => {
  const session = await getServerSession(authOptions);
  if (!session?.user?.id || !session.user.workspaceId) return null;
  const role = await currentRole(session.user.id, session.sessionVersion, session.user.workspaceId);
  return role ? { ...session.user, role } : null;
});

/** A session signed in before the user's last password reset, or of a workspace the user left, is no longer valid. */
async function currentRole(userId: string, sessionVersion: number | undefined, workspaceId: string): Promise<MemberRole | null> {
  return sessionRole(await getDb(), userId, sessionVersion ?? 0, workspaceId);
}

/** For pages: the signed-in user, or a redirect to the sign-in page. */
export async function requireUser(): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user) redirect(SIGN_IN_PATH);
  return user;
}

const SESSION_COOKIE = "next-auth.session-token";
const SECURE_SESSION_COOKIE = `__Secure-${SESSION_COOKIE}`;

/**
 * The signed-in user of a route request, read from its session cookie alone. Only the cookie is
 * consulted: next-auth would otherwise also take an `Authorization: Bearer` value as a session
 * token, and that header belongs to API keys here.
 */
export async function getRequestSessionUser(request: Request): Promise<SessionUser | null> {
  const session = await readSessionToken(request);
  const token = session?.token;
  if (!token?.sub || !token.workspaceId) return null;
  const role = await currentRole(token.sub, token.sessionVersion, token.workspaceId);
  if (!role) return null;
  return { id: token.sub, email: token.email ?? "", name: token.name ?? "", workspaceId: token.workspaceId, role };
}

/** The request's decoded session token (from the cookie alone) and whether it came in the secure cookie; null without one. */
async function readSessionToken(request: Request) {
  const cookies = parseCookies(request.headers.get("cookie"));
  const names = Object.keys(cookies);
  const secureCookie = names.some((name) => name.startsWith(SECURE_SESSION_COOKIE));
  if (!secureCookie && !names.some((name) => name.startsWith(SESSION_COOKIE))) return null;
  prepareAuthEnvironment();
  const token = await getToken({
    req: { cookies, headers: {} } as unknown as Parameters<typeof getToken>[0]["req"],
    secureCookie,
    secret: process.env.AUTH_SECRET,
    logger: { error: () => {}, warn: () => {}, debug: () => {} } as unknown as Console,
  });
  return token ? { token, secureCookie } : null;
}

/** How long a session lasts (next-auth's default, which the options keep). */
const SESSION_MAX_AGE_SECONDS = 30 * 24 * 3600;

/**
 * The `Set-Cookie` value that moves the request's session to another workspace of the same user
 * (the caller checked the membership). Null without a valid session cookie.
 */
export async function sessionCookieForWorkspace(request: Request, workspaceId: string): Promise<string | null> {
  const session = await readSessionToken(request);
  if (!session?.token.sub) return null;
  const { token, secureCookie } = session;
  const value = await encode({ token: { ...token, workspaceId }, secret: process.env.AUTH_SECRET!, maxAge: SESSION_MAX_AGE_SECONDS });
  const name = secureCookie ? SECURE_SESSION_COOKIE : SESSION_COOKIE;
  return `${name}=${value}; Path=/; HttpOnly; SameSite=Lax; Max-Age=${SESSION_MAX_AGE_SECONDS}${secureCookie ? "; Secure" : ""}`;
}

function parseCookies(header: string | null): Record<string, string> {
  const cookies: Record<string, string> = {};
  for (const part of header?.split(";") ?? []) {
    const index = part.indexOf("=");
    if (index <= 0) continue;
    const name = part.slice(0, index).trim();
    const value = part.slice(index + 1).trim();
    try {
      cookies[name] = decodeURIComponent(value);
    } catch {
      cookies[name] = value;
    }
  }
  return cookies;
}
