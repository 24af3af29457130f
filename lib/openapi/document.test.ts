import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { buildOpenApiDocument, toJsonSchema } from "./document";
import { endpointCurl } from "./curl";
import { ERROR_CATALOG } from "@/lib/http/error-catalog";
import { ApiError } from "@/lib/http/errors";
import { problemType } from "@/lib/http/problem";
import { ENDPOINTS, endpointErrors } from "./registry";
import { parseStrict } from "@/lib/http/request";

const ROOT = path.resolve(import.meta.dirname, "../..");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

function routeFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return routeFiles(rel);
    return entry.name === "route.ts" ? [rel] : [];
  });
}

/** `app/api/v1/campaigns/[id]/route.ts` → `/api/v1/campaigns/{id}`. */
function routePath(file: string): string {
  return `/${path.dirname(file).split(path.sep).slice(1).join("/")}`.replace(/\[(\w+)\]/g, "{$1}");
}

function routeFile(apiPath: string): string {
  return path.join("app", ...apiPath.replace(/\{(\w+)\}/g, "[$1]").split("/").filter(Boolean), "route.ts");
}

describe("the OpenAPI document", () => {
  const document = buildOpenApiDocument({ baseUrl: "https://app.sendstream.example" });

  it("is a valid OpenAPI 3.1 document", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("lists every route under app/api/v1, and every documented path has a route", () => {
    const v1Routes = routeFiles("app/api/v1").map(routePath).sort();
    const documentedV1 = Object.keys(document.paths).filter((p) => p.startsWith("/api/v1/")).sort();
    expect(documentedV1).toEqual(v1Routes);
    for (const documented of Object.keys(document.paths)) {
      expect(() => readFileSync(path.join(ROOT, routeFile(documented))), documented).not.toThrow();
    }
  });

  it("documents exactly the methods each route implements; every other method answers 405 with Allow", async () => {
    for (const apiPath of Object.keys(document.paths)) {
      const routeModule = (await import(path.join(ROOT, routeFile(apiPath)))) as Record<string, (r: Request, c: unknown) => Promise<Response>>;
      const documented = Object.keys(document.paths[apiPath]!).map((m) => m.toUpperCase()).sort();
      const implemented: string[] = [];
      for (const method of METHODS) {
        const handler = routeModule[method];
        expect(handler, `${method} ${apiPath} is exported`).toBeTypeOf("function");
        const url = `http://localhost${apiPath.replace(/\{(\w+)\}/g, "x")}`;
        const response = await handler!(new Request(url, { method }), { params: Promise.resolve({ id: "cmp_x", phone: "+14155552671" }) });
        if (response.status === 405) {
          expect(response.headers.get("allow")?.split(", ").sort(), `Allow of ${method} ${apiPath}`).toEqual(documented);
          expect(response.headers.get("content-type")).toBe("application/problem+json");
        } else {
          implemented.push(method);
        }
      }
      expect(implemented.sort(), apiPath).toEqual(documented);
    }
  });

  it("declares the security schemes and applies them to every endpoint but itself; the trigger endpoints also take signed sources", () => {
    expect(document.components.securitySchemes).toMatchObject({
      apiKeyHeader: { type: "apiKey", in: "header", name: "x-api-key" },
      bearerAuth: { type: "http", scheme: "bearer" },
      ShopifyHmac: { type: "apiKey", in: "header", name: "X-Shopify-Hmac-Sha256" },
      WooCommerceSignature: { type: "apiKey", in: "header", name: "X-WC-Webhook-Signature" },
      StripeSignature: { type: "apiKey", in: "header", name: "Stripe-Signature" },
      StandardWebhooks: { type: "apiKey", in: "header", name: "webhook-signature" },
    });
    expect(document.security).toEqual([{ apiKeyHeader: [] }, { bearerAuth: [] }]);
    const triggerPaths = new Set(["/api/campaigns/{id}/trigger", "/outbound/{id}"]);
    for (const [apiPath, operations] of Object.entries(document.paths)) {
      for (const op of Object.values(operations)) {
        if (apiPath === "/api/v1/openapi.json") expect(op.security).toEqual([]);
        else if (triggerPaths.has(apiPath)) {
          expect(op.security).toEqual([
            { apiKeyHeader: [] },
            { bearerAuth: [] },
            { ShopifyHmac: [] },
            { WooCommerceSignature: [] },
            { StripeSignature: [] },
            { StandardWebhooks: [] },
          ]);
          expect(Object.keys(op.responses as object)).toEqual(expect.arrayContaining(["401", "405", "500", "503"]));
        } else {
          expect(op.security).toBeUndefined();
          expect(Object.keys(op.responses as object)).toEqual(expect.arrayContaining(["401", "405", "500", "503"]));
        }
      }
    }
  });

  it("covers the trigger endpoints and the CSV export", () => {
    expect(document.paths["/api/campaigns/{id}/trigger"]?.post?.responses).toHaveProperty("202");
    expect(document.paths["/outbound/{id}"]?.post).toBeDefined();
    expect(document.paths["/api/v1/campaigns/{id}/logs.csv"]?.get?.responses).toMatchObject({ "200": { content: { "text/csv": {} } } });
  });

  it("publishes every JSON request body as a named schema, each name once, strict where the endpoint is", () => {
    const refs = ENDPOINTS.filter((endpoint) => endpoint.body).map((endpoint) => {
      const operation = document.paths[endpoint.path]![endpoint.method.toLowerCase()] as { requestBody: { content: Record<string, { schema: { $ref?: string } }> } };
      const ref = operation.requestBody.content["application/json"]!.schema.$ref ?? "";
      expect(ref, endpoint.operationId).toMatch(/^#\/components\/schemas\/\w+$/);
      const name = ref.replace("#/components/schemas/", "");
      expect(document.components.schemas[name], name).toBeDefined();
      const schema = document.components.schemas[name] as { type?: string; additionalProperties?: unknown };
      if (endpoint.body!.strict && schema.type === "object") expect(schema.additionalProperties, name).toBe(false);
      return name;
    });
    expect(refs).toContain("CreateListRequest");
    // A name stands for one schema: two endpoints share a name only when they share the body.
    const schemaOf = new Map<string, unknown>();
    ENDPOINTS.filter((endpoint) => endpoint.body).forEach((endpoint, i) => {
      const known = schemaOf.get(refs[i]!);
      if (known) expect(known, refs[i]).toBe(endpoint.body!.schema);
      schemaOf.set(refs[i]!, endpoint.body!.schema);
    });
  });

  it("marks strict request bodies with additionalProperties: false at every depth", () => {
    const update = document.components.schemas.UpdateCampaignRequest as { additionalProperties: unknown; properties: Record<string, { additionalProperties?: unknown }> };
    expect(update.additionalProperties).toBe(false);
    expect(update.properties.triggerConfig?.additionalProperties).toBe(false);
    const trigger = toJsonSchema(ENDPOINTS.find((e) => e.operationId === "triggerCampaign")!.body!.schema);
    expect(JSON.stringify(trigger)).not.toContain('"additionalProperties":false');
  });

  it("has request and response examples that match their schemas exactly", () => {
    for (const endpoint of ENDPOINTS) {
      if (endpoint.body) {
        const parse = () => (endpoint.body!.strict ? parseStrict(endpoint.body!.schema, endpoint.body!.example) : endpoint.body!.schema.parse(endpoint.body!.example));
        expect(parse, `${endpoint.operationId} request example`).not.toThrow();
      }
      for (const response of endpoint.responses) {
        if (response.schema) {
          expect(() => parseStrict(response.schema!, response.example), `${endpoint.operationId} ${response.status} example`).not.toThrow();
        }
      }
    }
  });

  it("has a curl example per endpoint that uses the key from the environment", () => {
    for (const endpoint of ENDPOINTS) {
      const curl = endpointCurl(endpoint, "https://app.sendstream.example");
      expect(curl).toContain(`https://app.sendstream.example${endpoint.path.split("{")[0]}`);
      if (endpoint.auth === "apiKey") expect(curl).toContain('-H "x-api-key: $SENDSTREAM_API_KEY"');
      if (endpoint.method !== "GET") expect(curl).toContain(`-X ${endpoint.method}`);
    }
  });

  it("documents every error code: ApiError only takes catalogue codes, each once, with its status and title", () => {
    const codes = ERROR_CATALOG.map((entry) => entry.code);
    expect(new Set(codes).size).toBe(codes.length);
    for (const entry of ERROR_CATALOG) {
      expect(entry.status, entry.code).toBeGreaterThanOrEqual(400);
      expect(entry.title.length, entry.code).toBeGreaterThan(0);
      expect(entry.description.length, entry.code).toBeGreaterThan(20);
      const error = new ApiError(entry.code, "detail");
      expect({ status: error.status, title: error.title }).toEqual({ status: entry.status, title: entry.title });
    }
    expect(document["x-error-codes"]).toEqual(ERROR_CATALOG.map(({ code, status, title }) => ({ code, status, title, type: problemType(code) })));
    const documented = new Set<string>(codes);
    for (const endpoint of ENDPOINTS) for (const code of endpointErrors(endpoint)) expect(documented.has(code)).toBe(true);
  });
});
