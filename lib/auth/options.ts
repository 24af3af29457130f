import type { NextAuthOptions } from "next-auth";
import CredentialsProvider from "next-auth/providers/credentials";
import GitHubProvider from "next-auth/providers/github";
import GoogleProvider from "next-auth/providers/google";
import { getDb } from "@/db";
import { safeCallbackUrl } from "./callback-url";
import { findOrCreateOAuthUser, verifyCredentials } from "./accounts";
import { prepareAuthEnvironment } from "./environment";
import { signInSchema } from "./schemas";

prepareAuthEnvironment();

export const SIGN_IN_PATH = "/sign-in";

/** OAuth providers switch on when both of their variables are set. */
export function oauthProviders() {
  const providers = [];
  if (process.env.GITHUB_ID && process.env.GITHUB_SECRET) {
    providers.push(GitHubProvider({ clientId: process.env.GITHUB_ID, clientSecret: process.env.GITHUB_SECRET }));
  }
  if (process.env.GOOGLE_CLIENT_ID && process.env.GOOGLE_CLIENT_SECRET) {
    providers.push(GoogleProvider({ clientId: process.env.GOOGLE_CLIENT_ID, clientSecret: process.env.GOOGLE_CLIENT_SECRET }));
  }
  return providers;
}

export const authOptions: NextAuthOptions = {
  session: { strategy: "jwt", maxAge: 30 * 24 * 60 * 60 },
  pages: { signIn: SIGN_IN_PATH, error: SIGN_IN_PATH },
  providers: [
    CredentialsProvider({
      name: "Email and password",
      credentials: { email: { label: "Email", type: "email" }, password: { label: "Password", type: "password" } },
      async authorize(credentials) {
        const parsed = signInSchema.safeParse(credentials);
        if (!parsed.success) return null;
        const user = await verifyCredentials(await getDb(), parsed.data.email, parsed.data.password);
        return user && { id: user.id, email: user.email, name: user.name, workspaceId: user.workspaceId };
      },
    }),
    ...oauthProviders(),
  ],
  callbacks: {
    // next-auth's default lets any same-origin-looking string through; resolve it like a browser would.
    async redirect({ url, baseUrl }) {
      return `${new URL(baseUrl).origin}${safeCallbackUrl(url, baseUrl)}`;
    },
    async jwt({ token, user, account }) {
      if (user && account?.provider === "credentials") {
        token.sub = user.id;
        token.workspaceId = (user as { workspaceId?: string }).workspaceId;
      } else if (user && account && user.email) {
        const local = await findOrCreateOAuthUser(await getDb(), { email: user.email, name: user.name ?? user.email });
        token.sub = local.id;
        token.name = local.name;
        token.email = local.email;
        token.workspaceId = local.workspaceId;
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
      }
      return session;
    },
  },
};
