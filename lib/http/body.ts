import { ApiError, validationFailed } from "./errors";
import { unstorableTextErrors } from "./storable-text";

export const KIB = 1024;

/** Whether a Content-Type names JSON (`application/json`, `application/*+json`, any parameters). */
export function isJsonContentType(contentType: string | null): boolean {
  if (!contentType) return false;
  const mediaType = contentType.split(";")[0]!.trim().toLowerCase();
  return mediaType === "application/json" || /^application\/[a-z0-9.+-]+\+json$/.test(mediaType);
}

export function payloadTooLarge(limitBytes: number): ApiError {
  return new ApiError("payload_too_large", `The request body exceeds the limit of ${Math.floor(limitBytes / KIB)} KiB.`);
}

/**
 * Reads the raw body, refusing it as soon as it passes `limitBytes` (a declared Content-Length
 * over the limit is refused before reading anything). `onChunk` sees every chunk read, the one
 * past the limit included (a request log keeps what arrived without a copy of the stream).
 */
export async function readBodyBytes(request: Request, limitBytes: number, onChunk?: (chunk: Uint8Array) => void): Promise<Uint8Array> {
  const declared = Number(request.headers.get("content-length"));
  if (Number.isFinite(declared) && declared > limitBytes) throw payloadTooLarge(limitBytes);
  if (!request.body) return new Uint8Array();
  const reader = request.body.getReader();
  const chunks: Uint8Array[] = [];
  let total = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    onChunk?.(value);
    total += value.byteLength;
    if (total > limitBytes) {
      await reader.cancel().catch(() => {});
      throw payloadTooLarge(limitBytes);
    }
    chunks.push(value);
  }
  const out = new Uint8Array(total);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.byteLength;
  }
  return out;
}

export interface JsonBody {
  value: unknown;
  /** The exact bytes received, for signatures and idempotency fingerprints. */
  raw: Uint8Array;
}

export function assertJsonContentType(request: Request): void {
  if (!isJsonContentType(request.headers.get("content-type"))) {
    throw new ApiError("unsupported_media_type", "Send the body as JSON with the header Content-Type: application/json.");
  }
}

/** No request this service takes comes close; deeper bodies only serve to exhaust the stack. */
export const MAX_JSON_DEPTH = 32;

/**
 * Whether `text` opens more than `maxDepth` arrays/objects at once, counted outside strings. A
 * single loop without recursion, run before JSON.parse so that nothing downstream (parse,
 * validation, the text checks) walks a body thousands of levels deep. Malformed text is left to
 * JSON.parse to describe.
 */
export function exceedsJsonDepth(text: string, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c /* backslash */) i++;
      else if (c === 0x22 /* " */) inString = false;
    } else if (c === 0x22) {
      inString = true;
    } else if (c === 0x5b /* [ */ || c === 0x7b /* { */) {
      if (++depth > maxDepth) return true;
    } else if (c === 0x5d /* ] */ || c === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}

/** Decodes UTF-8 JSON bytes; anything unreadable is a 400 saying what is wrong. */
export function parseJsonBytes(raw: Uint8Array, emptyDetail = "The body is empty; send a JSON document."): unknown {
  let text: string;
  try {
    text = new TextDecoder("utf-8", { fatal: true }).decode(raw);
  } catch {
    throw malformedJson("The body is not valid UTF-8.");
  }
  if (text.trim() === "") throw malformedJson(emptyDetail);
  if (exceedsJsonDepth(text, MAX_JSON_DEPTH)) {
    throw malformedJson(`The body nests arrays and objects deeper than ${MAX_JSON_DEPTH} levels.`);
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw malformedJson(`The body is not valid JSON: ${(error as Error).message}`);
  }
}

/**
 * Content-Type check (415), size cap (413), JSON parse (400), then text the database cannot store
 * (422), in that order. Callers that verify a signature over the raw body first opt out of the last.
 */
export async function readJsonBody(
  request: Request,
  options: { limitBytes: number; rejectUnstorableText?: boolean },
): Promise<JsonBody> {
  assertJsonContentType(request);
  const raw = await readBodyBytes(request, options.limitBytes);
  const value = parseJsonBytes(raw);
  if (options.rejectUnstorableText ?? true) {
    const unstorable = unstorableTextErrors(value);
    if (unstorable.length > 0) throw validationFailed(unstorable);
  }
  return { value, raw };
}

function malformedJson(detail: string): ApiError {
  return new ApiError("malformed_json", detail);
}
