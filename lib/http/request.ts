// Parsing REST API input: bodies strictly (unknown members → 422), query strings by schema.
import type { z } from "zod";
import { KIB, readJsonBody } from "@/lib/http/body";
import { validationFailed } from "@/lib/http/errors";
import { zodFieldErrors } from "@/lib/http/problem";
import { unknownMemberErrors } from "./strict";

export const MAX_API_BODY_BYTES = 64 * KIB;

/** Validates `value` against `schema`, reporting schema failures and unknown members together. */
export function parseStrict<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const unknown = unknownMemberErrors(schema, value);
  const result = schema.safeParse(value);
  if (unknown.length === 0 && result.success) return result.data;
  throw validationFailed([...unknown, ...(result.success ? [] : zodFieldErrors(result.error))]);
}

/**
 * A JSON body (415 / 413 / 400 first), validated strictly. Text the database cannot store is
 * refused here for every REST body, so no service ever fails on it.
 */
export async function readStrictBody<S extends z.ZodType>(request: Request, schema: S): Promise<z.output<S>> {
  const { value } = await readJsonBody(request, { limitBytes: MAX_API_BODY_BYTES });
  return parseStrict(schema, value);
}

/** Query parameters → the schema (a repeated parameter becomes an array). Unknown parameters are ignored. */
export function parseQuery<S extends z.ZodType>(schema: S, url: URL): z.output<S> {
  const record: Record<string, string | string[]> = {};
  for (const key of new Set(url.searchParams.keys())) {
    const values = url.searchParams.getAll(key);
    record[key] = values.length === 1 ? values[0]! : values;
  }
  const result = schema.safeParse(record);
  if (!result.success) throw validationFailed(zodFieldErrors(result.error), "A query parameter is not valid.");
  return result.data;
}

/** URLSearchParams (or a page's searchParams object) → a plain record the schemas accept. */
export function searchParamsRecord(
  input: URLSearchParams | Record<string, string | string[] | undefined>,
): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  const entries: [string, string | string[] | undefined][] =
    input instanceof URLSearchParams ? [...new Set(input.keys())].map((key) => [key, input.getAll(key)]) : Object.entries(input);
  for (const [key, value] of entries) {
    if (value === undefined) continue;
    out[key] = Array.isArray(value) && value.length === 1 ? value[0]! : value;
  }
  return out;
}
