import { getDb } from "@/db";
import { defineAttribute, defineAttributeSchema, listAttributes } from "@/lib/contacts/attributes";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { readStrictBody } from "@/lib/http/request";

export const GET = withWorkspace(async ({ workspaceId }) => json(await listAttributes(await getDb(), workspaceId)));

export const POST = withWorkspace(async ({ request, workspaceId }) => {
  const input = await readStrictBody(request, defineAttributeSchema);
  const { attribute, created } = await defineAttribute(await getDb(), workspaceId, input);
  return json(attribute, { status: created ? 201 : 200 });
});

const notAllowed = methodNotAllowed(["GET", "POST"]);
export const PUT = notAllowed;
export const PATCH = notAllowed;
export const DELETE = notAllowed;
