import "next-auth";
import "next-auth/jwt";

declare module "next-auth" {
  interface Session {
    user: { id: string; email: string; name: string; workspaceId: string };
  }
}

declare module "next-auth/jwt" {
  interface JWT {
    workspaceId?: string;
  }
}
