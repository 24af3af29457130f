import "next-auth";
import "next-auth/jwt";

declare module "next-auth" {
  interface Session {
    user: { id: string; email: string; name: string; workspaceId: string };
    /** Read on the server only, to refuse a session signed in before the last password reset. */
    sessionVersion?: number;
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    workspaceId?: string;
    /** `users.session_version` when the session was signed in (absent in sessions older than it: 0). */
    sessionVersion?: number;
  }
}
