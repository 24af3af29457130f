import { getDb } from "@/db";
import { json, methodNotAllowed, withWorkspace } from "@/lib/routing/route";
import { bulkUpsertContacts } from "@/lib/imports/bulk";
import { bulkContactsSchema } from "@/lib/imports/schemas";
import { acceptCsvBulk, isCsvContentType } from "@/lib/imports/http";
import { KIB, readJsonBody } from "@/lib/http/body";
import { parseStrict } from "@/lib/http/request";

/** 1,000 contacts with a few attributes each. */
const MAX_BULK_JSON_BYTES = 1024 * KIB;

export const POST = withWorkspace(
  async ({ request, requestId, workspaceId, actor }) => {
    if (isCsvContentType(request.headers.get("content-type"))) return acceptCsvBulk(request, requestId, workspaceId, actor);
    const { value } = await readJsonBody(request, { limitBytes: MAX_BULK_JSON_BYTES });
    const items = parseStrict(bulkContactsSchema, value);
    return json(await bulkUpsertContacts(await getDb(), workspaceId, items, actor));
  },
  { csvBody: true },
);

export const GET = methodNotAllowed(["POST"]);
export const PUT = methodNotAllowed(["POST"]);
export const PATCH = methodNotAllowed(["POST"]);
export const DELETE = methodNotAllowed(["POST"]);
