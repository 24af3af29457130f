import { originOfRequest } from "@/lib/http/origin";
import { appUrl } from "@/lib/env";
import { json, methodNotAllowed, withPublic } from "@/lib/routing/route";
import { buildOpenApiDocument } from "@/lib/openapi/document";

/** The OpenAPI 3.1 document of the REST API. Public, so API tools can load it without a key. */
export const GET = withPublic(async ({ request }) =>
  json(buildOpenApiDocument({ baseUrl: appUrl(originOfRequest(request)) }), {
    headers: { "Cache-Control": "public, max-age=300", "Access-Control-Allow-Origin": "*" },
  }),
);

export const POST = methodNotAllowed(["GET"]);
export const PUT = methodNotAllowed(["GET"]);
export const PATCH = methodNotAllowed(["GET"]);
export const DELETE = methodNotAllowed(["GET"]);
