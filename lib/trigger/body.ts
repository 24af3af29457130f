// Reading a trigger body: JSON only (415), 64 KiB for an object or 1 MiB for an array (413),
// well-formed UTF-8 JSON (400).
import { assertJsonContentType, KIB, parseJsonBytes, payloadTooLarge, readBodyBytes } from "@/lib/http/body";

export const MAX_OBJECT_BODY_BYTES = 64 * KIB;
export const MAX_ARRAY_BODY_BYTES = 1024 * KIB;

export interface TriggerBody {
  value: unknown;
  /** The exact bytes received (the idempotency fingerprint is taken over them). */
  raw: Uint8Array;
}

const WHITESPACE = new Set([0x20, 0x09, 0x0a, 0x0d]);
const UTF8_BOM = [0xef, 0xbb, 0xbf];

/** The first byte that is not JSON whitespace (after an optional BOM), or -1. */
export function firstSignificantByte(bytes: Uint8Array): number {
  let i = bytes[0] === UTF8_BOM[0] && bytes[1] === UTF8_BOM[1] && bytes[2] === UTF8_BOM[2] ? 3 : 0;
  for (; i < bytes.length; i++) if (!WHITESPACE.has(bytes[i]!)) return bytes[i]!;
  return -1;
}

/** `onChunk`: sees every chunk read (the request log's copy of the body). */
export async function readTriggerBody(request: Request, onChunk?: (chunk: Uint8Array) => void): Promise<TriggerBody> {
  assertJsonContentType(request);
  return triggerBodyFromBytes(await readRawTriggerBody(request, onChunk));
}

/**
 * The body's bytes up to the array cap, whatever its type: a signed source verifies them before
 * anything else looks at the body.
 */
export function readRawTriggerBody(request: Request, onChunk?: (chunk: Uint8Array) => void): Promise<Uint8Array> {
  return readBodyBytes(request, MAX_ARRAY_BODY_BYTES, onChunk);
}

/** Bytes already read → the trigger body: anything that is not an array is held to the object cap. */
export function triggerBodyFromBytes(raw: Uint8Array): TriggerBody {
  if (raw.byteLength > MAX_OBJECT_BODY_BYTES && firstSignificantByte(raw) !== 0x5b /* [ */) {
    throw payloadTooLarge(MAX_OBJECT_BODY_BYTES);
  }
  return { value: parseJsonBytes(raw, "The body is empty; send a JSON object or an array of objects."), raw };
}
