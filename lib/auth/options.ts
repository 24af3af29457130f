import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import GitHubProvider from "next-auth/providers/github";
import GoogleProvider from "next-auth/providers/google";
import { getDb } from "@/db";
import { safeCallbackUrl } from "./callback-url";
import { clientIp } from "@/lib/http/client-ip";
import { findOrCreateOAuthUser } from "./accounts";
import { knownDeviceId } from "./known-device";
import { prepareAuthEnvironment } from "./environment";
import { fetchGitHubEmails, githubProfileWithVerifiedEmail, OAuthEmailNotVerifiedError, verifiedOAuthEmail } from "./oauth";
import { signInSchema } from "./schemas";
import { SIGN_IN_ERRORS } from "./sign-in-errors";
import { authenticate } from "./sign-in";

prepareAuthEnvironment();

export const SIGN_IN_PATH = "/sign-in";

/** OAuth providers switch on when both of their variables are set. */
export function oauthProviders() {
  const providers = [];
  if (process.env.GITHUB_ID && process.env.GITHUB_SECRET) {
    providers.push(
      GitHubProvider({
        clientId: process.env.GITHUB_ID,
        clientSecret: process.env.GITHUB_SECRET,
        userinfo: {
          url: "https://api.github.com/user",
          async request({ client, tokens }) {
            const profile = await client.userinfo(tokens.access_token!);
            return githubProfileWithVerifiedEmail(profile, await fetchGitHubEmails(tokens.access_token!));
          },
        },
      }),
    );
  }
  if (process.env.GOOGLE_CLIENT_ID && process.env.GOOGLE_CLIENT_SECRET) {
    providers.push(GoogleProvider({ clientId: process.env.GOOGLE_CLIENT_ID, clientSecret: process.env.GOOGLE_CLIENT_SECRET }));
  }
  return providers;
}

function headerRecord(headers: Record<string, unknown> | undefined): Record<string, string> {
  const record: Record<string, string> = {};
  for (const [name, value] of Object.entries(headers ?? {})) {
    if (typeof value === "string") record[name] = value;
    else if (Array.isArray(value)) record[name] = value.join(", ");
  }
  return record;
}

export const authOptions: NextAuthOptions = {
  session: { strategy: "jwt", maxAge: 30 * 24 * 60 * 60 },
  pages: { signIn: SIGN_IN_PATH, error: SIGN_IN_PATH },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials, req) {
        const parsed = signInSchema.safeParse(credentials);
        if (!parsed.success) return null;
        const headers = headerRecord(req?.headers);
        const ip = clientIp(new Request("http://sign-in.invalid/", { headers }));
        const device = knownDeviceId(headers.cookie, parsed.data.email, process.env.AUTH_SECRET!);
        // A throttled attempt throws: next-auth hands its message (the error code) to the form.
        const user = await authenticate(await getDb(), { ...parsed.data, ip, knownDeviceId: device });
        return user && { id: user.id, email: user.email, name: user.name, workspaceId: user.workspaceId, sessionVersion: user.sessionVersion };
      },
    }),
    ...oauthProviders(),
  ],
  callbacks: {
    // next-auth's default lets any same-origin-looking string through; resolve it like a browser would.
    async redirect({ url, baseUrl }) {
      return `${new URL(baseUrl).origin}${safeCallbackUrl(url, baseUrl)}`;
    },
    // Refused before any account is looked at; the sign-in page explains why.
    async signIn({ account, profile }) {
      if (!account || account.provider === "credentials") return true;
      if (verifiedOAuthEmail(account.provider, profile as Record<string, unknown> | undefined)) return true;
      return `${SIGN_IN_PATH}?error=${SIGN_IN_ERRORS.oauthEmailNotVerified}`;
    },
    async jwt({ token, user, account, profile }) {
      if (user && account?.provider === "credentials") {
        token.sub = user.id;
        token.workspaceId = (user as { workspaceId?: string }).workspaceId;
        token.sessionVersion = (user as { sessionVersion?: number }).sessionVersion ?? 0;
      } else if (user && account) {
        const email = verifiedOAuthEmail(account.provider, profile as Record<string, unknown> | undefined);
        if (!email) throw new OAuthEmailNotVerifiedError();
        const local = await findOrCreateOAuthUser(await getDb(), { email, name: user.name ?? email, emailVerified: true });
        token.sub = local.id;
        token.name = local.name;
        token.email = local.email;
        token.workspaceId = local.workspaceId;
        token.sessionVersion = local.sessionVersion;
      }
      return token;
    },
    async session({ session, token }) {
      if (token.sub && token.workspaceId) {
        session.user = {
          id: token.sub,
          email: token.email ?? "",
          name: token.name ?? "",
          workspaceId: token.workspaceId,
        };
        session.sessionVersion = token.sessionVersion ?? 0;
      }
      return session;
    },
  },
};
