// Holds real responses of the route handlers to the OpenAPI document, as a validating proxy in
// front of the API would: every response's status must be documented for its operation, its
// content type for that status, its body valid against that schema (no undocumented members),
// and a problem's code among the codes the operation lists; a request the API accepted must fit
// the documented request body and parameters. It also records which (operation, status) pairs
// were exercised, so a test can fail for a documented answer it never saw.
import path from "node:path";
import { Ajv2020, type ValidateFunction } from "ajv/dist/2020";
import addFormats from "ajv-formats";
import type { OpenApiDocument } from "@/lib/openapi/document";
import type { NextRouteHandler } from "@/lib/routing/route";

const ROOT = path.resolve(import.meta.dirname, "../..");
const DOCUMENT_ID = "sendstream-openapi";
const JSON_MEDIA_TYPES = new Set(["application/json", "application/problem+json"]);

type JsonObject = Record<string, unknown>;

interface Operation {
  operationId: string;
  method: string;
  path: string;
  responses: Record<string, { headers?: Record<string, { required?: boolean; schema?: { type?: string } }>; content?: Record<string, { examples?: JsonObject }> }>;
  requestBody?: { required?: boolean; content: Record<string, unknown> };
  parameters?: { name: string; in: string }[];
}

export interface WireCall {
  /** Path parameters by name, as Next passes them (decoded). */
  params?: Record<string, string>;
  query?: Record<string, string>;
  /** Sent as JSON (`Content-Type: application/json`) unless `contentType` says otherwise. */
  json?: unknown;
  /** A raw body (CSV, broken JSON…) with its content type. */
  raw?: { contentType: string; text: string };
  /** The API key (`x-api-key`); null sends none. */
  key: string | null;
  headers?: Record<string, string>;
  /** The status the scenario expects (or the ones it accepts); another one is reported as a failed scenario. */
  expect: number | readonly number[];
}

export interface WireResult {
  status: number;
  headers: Headers;
  text: string;
  /** The parsed JSON body, or undefined. */
  body: JsonObject & { data?: JsonObject[] };
}

/** JSON pointer segment escaping (RFC 6901). */
const pointer = (...segments: string[]) => segments.map((s) => s.replace(/~/g, "~0").replace(/\//g, "~1")).join("/");

/**
 * Response members must be documented: every object schema that does not say whether it allows
 * other members gets `unevaluatedProperties: false` (which, unlike additionalProperties, looks
 * through allOf / anyOf). The published document stays open, so adding a member later does not
 * break generated clients; only this check is closed.
 */
function closeObjects(node: unknown): void {
  if (Array.isArray(node)) return node.forEach(closeObjects);
  if (typeof node !== "object" || node === null) return;
  const schema = node as JsonObject;
  if (schema.type === "object" && schema.properties && schema.additionalProperties === undefined && schema.unevaluatedProperties === undefined) {
    schema.unevaluatedProperties = false;
  }
  for (const [key, value] of Object.entries(schema)) if (key !== "example" && key !== "examples") closeObjects(value);
}

/** The code of a problem body (its `type` is `/docs/api#error-<code>`). */
function problemCode(body: unknown): string | undefined {
  const type = (body as JsonObject | undefined)?.type;
  return typeof type === "string" ? /#error-(\w+)$/.exec(type)?.[1] : undefined;
}

/** `/api/v1/campaigns/{id}` → the handlers of `app/api/v1/campaigns/[id]/route.ts`. */
async function routeModule(apiPath: string): Promise<Record<string, NextRouteHandler>> {
  const file = path.join(ROOT, "app", ...apiPath.replace(/\{(\w+)\}/g, "[$1]").split("/").filter(Boolean), "route.ts");
  return (await import(file)) as Record<string, NextRouteHandler>;
}

export class WireRecorder {
  /** Every mismatch between a response (or an accepted request) and the document. */
  readonly mismatches: string[] = [];
  /** `operationId status` pairs answered at least once. */
  readonly exercised = new Set<string>();
  /** `operationId status code` of every problem answered. */
  readonly exercisedCodes = new Set<string>();
  private readonly ajv: Ajv2020;
  /** Query values arrive as text: this one reads `"20"` as the integer a parameter's schema asks for. */
  private readonly queryAjv: Ajv2020;
  private readonly operations = new Map<string, Operation>();
  private readonly validators = new Map<string, ValidateFunction>();

  constructor(document: OpenApiDocument) {
    const closed = structuredClone(document) as OpenApiDocument;
    closeObjects(closed.paths);
    closeObjects(closed.components.schemas);
    this.ajv = new Ajv2020({ allErrors: true, strict: false });
    addFormats(this.ajv);
    this.ajv.addSchema(closed as JsonObject, DOCUMENT_ID);
    this.queryAjv = new Ajv2020({ allErrors: true, strict: false, coerceTypes: true });
    addFormats(this.queryAjv);
    this.queryAjv.addSchema(closed as JsonObject, DOCUMENT_ID);
    for (const [apiPath, operations] of Object.entries(document.paths)) {
      for (const [method, operation] of Object.entries(operations)) {
        const op = operation as unknown as Omit<Operation, "method" | "path">;
        this.operations.set(op.operationId, { ...op, method: method.toUpperCase(), path: apiPath });
      }
    }
  }

  operation(operationId: string): Operation {
    const operation = this.operations.get(operationId);
    if (!operation) throw new Error(`No operation ${operationId} in the document`);
    return operation;
  }

  /** Every documented `operationId status` pair. */
  documentedPairs(): string[] {
    return [...this.operations.values()].flatMap((op) => Object.keys(op.responses).map((status) => `${op.operationId} ${status}`));
  }

  /** Every documented `operationId status code` of a problem answer. */
  documentedCodes(): string[] {
    return [...this.operations.values()].flatMap((op) =>
      Object.entries(op.responses).flatMap(([status, response]) => Object.keys(response.content?.["application/problem+json"]?.examples ?? {}).map((code) => `${op.operationId} ${status} ${code}`)),
    );
  }

  /** Calls the operation's real route handler and checks the exchange against the document. */
  async call(operationId: string, call: WireCall): Promise<WireResult> {
    const operation = this.operation(operationId);
    return this.send(operation, operation.method, call, [operation]);
  }

  /**
   * Calls a method the path does not document: every operation of the path documents the 405 it
   * answers with, so the response is checked against (and counted for) each of them.
   */
  async callUndocumentedMethod(apiPath: string, method: string, call: WireCall): Promise<WireResult> {
    const operations = [...this.operations.values()].filter((op) => op.path === apiPath);
    if (operations.some((op) => op.method === method)) throw new Error(`${method} ${apiPath} is documented`);
    return this.send(operations[0]!, method, call, operations);
  }

  private async send(operation: Operation, method: string, call: WireCall, answeringFor: Operation[]): Promise<WireResult> {
    const params = call.params ?? {};
    const filled = operation.path.replace(/\{(\w+)\}/g, (_, name: string) => encodeURIComponent(params[name] ?? `missing-${name}`));
    const query = new URLSearchParams(call.query ?? {}).toString();
    const headers: Record<string, string> = { ...(call.key ? { "x-api-key": call.key } : {}), ...call.headers };
    let body: string | undefined;
    let contentType: string | undefined;
    if (call.raw) {
      body = call.raw.text;
      contentType = call.raw.contentType;
    } else if (call.json !== undefined) {
      body = JSON.stringify(call.json);
      contentType = "application/json";
    }
    if (contentType) headers["content-type"] = contentType;
    const handler = (await routeModule(operation.path))[method];
    if (!handler) throw new Error(`${method} ${operation.path} exports no handler`);
    const request = new Request(`http://localhost${filled}${query ? `?${query}` : ""}`, { method, headers, body });
    const response = await handler(request, { params: Promise.resolve(params) });
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = undefined;
    }
    const result: WireResult = { status: response.status, headers: response.headers, text, body: (parsed ?? {}) as WireResult["body"] };
    const label = `${method} ${operation.path}${query ? `?${query}` : ""}`;
    const expected = typeof call.expect === "number" ? [call.expect] : call.expect;
    if (!expected.includes(response.status)) {
      this.mismatches.push(`${operation.operationId} (${label}): the scenario expected ${expected.join(" or ")}, got ${response.status}: ${text.slice(0, 300)}`);
    }
    for (const answering of answeringFor) {
      this.checkResponse(answering, label, response, text, parsed);
      this.exercised.add(`${answering.operationId} ${response.status}`);
      const code = problemCode(parsed);
      if (code) this.exercisedCodes.add(`${answering.operationId} ${response.status} ${code}`);
    }
    if (response.status < 300 && method === operation.method) this.checkRequest(operation, label, response.status, call, contentType, body);
    return result;
  }

  private checkResponse(operation: Operation, label: string, response: Response, text: string, parsed: unknown): void {
    const where = `${operation.operationId} ${response.status} (${label})`;
    const fail = (what: string): void => void this.mismatches.push(`${where}: ${what}`);
    const documented = operation.responses[String(response.status)];
    const code = problemCode(parsed);
    if (!documented) {
      fail(`status not documented for this operation (documented: ${Object.keys(operation.responses).join(", ")})${code ? `; problem code ${code}` : ""}`);
      return;
    }
    for (const [name, header] of Object.entries(documented.headers ?? {})) {
      const value = response.headers.get(name);
      if (value === null && header.required) fail(`header ${name} is documented as always sent, but it is missing`);
      if (value !== null && header.schema?.type === "integer" && !/^\d+$/.test(value)) fail(`header ${name} is documented as an integer, got "${value}"`);
    }
    const mediaType = response.headers.get("content-type")?.split(";")[0]!.trim().toLowerCase() ?? null;
    if (!documented.content) {
      if (text !== "") fail(`documented without a body, but the response has one (${mediaType}): ${text.slice(0, 200)}`);
      if (mediaType !== null) fail(`documented without a body, but the response has Content-Type ${mediaType}`);
      return;
    }
    if (response.status === 204) fail("a 204 is documented with content; a 204 has no body");
    const documentedTypes = Object.keys(documented.content);
    if (!mediaType || !documented.content[mediaType]) {
      fail(`Content-Type ${mediaType ?? "(none)"} not documented (documented: ${documentedTypes.join(", ")})`);
      return;
    }
    if (text === "") fail(`empty body; ${mediaType} documented`);
    if (JSON_MEDIA_TYPES.has(mediaType)) {
      if (parsed === undefined) return fail(`body is not JSON: ${text.slice(0, 200)}`);
      this.validate(pointer("#", "paths", operation.path, operation.method.toLowerCase(), "responses", String(response.status), "content", mediaType, "schema"), parsed, (errors) =>
        fail(`body does not match the documented schema: ${errors}`),
      );
    }
    if (mediaType === "application/problem+json") {
      const problem = parsed as JsonObject;
      if (problem.status !== response.status) fail(`problem status ${String(problem.status)} differs from the HTTP status`);
      const codes = Object.keys(documented.content[mediaType]!.examples ?? {});
      if (!code || !codes.includes(code)) fail(`problem code ${code ?? "(none)"} not documented for this status (documented: ${codes.join(", ")})`);
    }
  }

  private checkRequest(operation: Operation, label: string, status: number, call: WireCall, contentType: string | undefined, body: string | undefined): void {
    const fail = (what: string): void => void this.mismatches.push(`${operation.operationId} request (${label}), answered ${status}: ${what}`);
    for (const [name, value] of Object.entries(call.query ?? {})) {
      const index = (operation.parameters ?? []).findIndex((p) => p.in === "query" && p.name === name);
      if (index === -1) {
        fail(`query parameter ${name} is not documented`);
        continue;
      }
      const schema = pointer("#", "paths", operation.path, operation.method.toLowerCase(), "parameters", String(index), "schema");
      this.validate(schema, value, (errors) => fail(`query parameter ${name}=${value} does not match its documented schema: ${errors}`), this.queryAjv);
    }
    if (body === undefined) {
      if (operation.requestBody?.required) fail("accepted without a body, but the document requires one");
      return;
    }
    const mediaType = contentType!.split(";")[0]!.trim().toLowerCase();
    if (!operation.requestBody) return fail(`accepted a ${mediaType} body, but the document has no requestBody`);
    if (!operation.requestBody.content[mediaType]) {
      return fail(`accepted a ${mediaType} body, but the requestBody documents only ${Object.keys(operation.requestBody.content).join(", ")}`);
    }
    if (mediaType === "application/json") {
      this.validate(pointer("#", "paths", operation.path, operation.method.toLowerCase(), "requestBody", "content", mediaType, "schema"), JSON.parse(body), (errors) =>
        fail(`the accepted body does not match the documented request schema: ${errors}`),
      );
    }
  }

  private validate(schemaPointer: string, value: unknown, onErrors: (errors: string) => void, ajv = this.ajv): void {
    const cacheKey = `${ajv === this.ajv ? "" : "query:"}${schemaPointer}`;
    let validator = this.validators.get(cacheKey);
    if (!validator) {
      validator = ajv.compile({ $ref: `${DOCUMENT_ID}${schemaPointer}` });
      this.validators.set(cacheKey, validator);
    }
    if (validator(value)) return;
    onErrors(
      (validator.errors ?? [])
        .slice(0, 6)
        .map((e) => `${e.instancePath || "(root)"} ${e.message ?? e.keyword}${e.params && "unevaluatedProperty" in e.params ? ` "${String(e.params.unevaluatedProperty)}"` : ""}`)
        .join("; "),
    );
  }
}
