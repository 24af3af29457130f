import { z } from "zod";
import { getDb } from "@/db";
import { sessionCookieForWorkspace } from "@/lib/auth/session";
import { KIB, readJsonBody } from "@/lib/http/body";
import { notFound } from "@/lib/http/errors";
import { json, methodNotAllowed, webAppOnly, withWorkspace } from "@/lib/routing/route";
import { listUserWorkspaces } from "@/lib/members/service";

const switchSchema = z.object({ workspaceId: z.string().min(1).max(64) }).strict();

/** Moves the session to another workspace the user belongs to; every later request is scoped to it. */
export const POST = withWorkspace(async ({ request, actor }) => {
  const { value } = await readJsonBody(request, { limitBytes: 1 * KIB });
  const { workspaceId } = switchSchema.parse(value);
  const mine = await listUserWorkspaces(await getDb(), actor.id);
  if (!mine.some((w) => w.id === workspaceId)) throw notFound("You are not a member of this workspace.");
  const cookie = await sessionCookieForWorkspace(request, workspaceId);
  return json({ workspaceId }, { headers: cookie ? { "Set-Cookie": cookie } : {} });
}, webAppOnly);

export const GET = methodNotAllowed(["POST"]);
export const PUT = methodNotAllowed(["POST"]);
export const PATCH = methodNotAllowed(["POST"]);
export const DELETE = methodNotAllowed(["POST"]);
