import { getServerSession } from "next-auth";
import { redirect } from "next/navigation";
import { authOptions, SIGN_IN_PATH } from "./options";

export interface SessionUser {
  id: string;
  email: string;
  name: string;
  workspaceId: string;
}

export async function getSessionUser(): Promise<SessionUser | null> {
  const session = await getServerSession(authOptions);
  return session?.user?.id && session.user.workspaceId ? session.user : null;
}

/** For pages: the signed-in user, or a redirect to the sign-in page. */
export async function requireUser(): Promise<SessionUser> {
  const user = await getSessionUser();
  if (!user) redirect(SIGN_IN_PATH);
  return user;
}
