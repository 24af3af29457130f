import { getServerSession } from "next-auth";
import { getToken } from "next-auth/jwt";
import { redirect } from "next/navigation";
import { cache } from "react";
import { getDb } from "@/db";
import { isSessionCurrent } from "./accounts";
import { prepareAuthEnvironment } from "./environment";
import { authOptions, SIGN_IN_PATH } from "./options";

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  workspaceId: string;
}

/** For pages and server components: the signed-in user of the current request, if any (read once per render). */
export const getSessionUser = cache(async (): Promise<SessionUser | null> => {
  const session = await getServerSession(authOptions);
  if (!session?.user?.id || !session.user.workspaceId) return null;
  return (await sessionIsCurrent(session.user.id, session.sessionVersion)) ? session.user : null;
});

/** A session signed in before the user's last password reset is no longer valid. */
async function sessionIsCurrent(userId: string, sessionVersion: number | undefined): Promise<boolean> {
  return isSessionCurrent(await getDb(), userId, sessionVersion ?? 0);
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
  if (!token?.sub || !token.workspaceId) return null;
  if (!(await sessionIsCurrent(token.sub, token.sessionVersion))) return null;
  return { id: token.sub, email: token.email ?? "", name: token.name ?? "", workspaceId: token.workspaceId };
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
