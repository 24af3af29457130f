// One POST to an endpoint: connects only to addresses checked by assertPublicHost (no second,
// unchecked lookup), follows no redirect, gives up after the timeout and keeps at most 2 KiB of
// the answer for the delivery log.
import http from "node:http";
import https from "node:https";
import type { LookupFunction } from "node:net";
import { assertPublicHost } from "./public-address";

export const RESPONSE_KEPT_BYTES = 2048;
export const DELIVERY_TIMEOUT_MS = 10_000;

export interface PostResult {
  status: number;
  ms: number;
  body: string;
}

export class DeliveryError extends Error {
  constructor(message: string, readonly ms: number) {
    super(message);
  }
}

export async function postJson(
  target: string,
  headers: Record<string, string>,
  body: string,
  options: { timeoutMs?: number; allowPrivate?: boolean } = {},
): Promise<PostResult> {
  const url = new URL(target);
  const started = performance.now();
  const elapsed = () => Math.round(performance.now() - started);
  let addresses: { address: string; family: number }[];
  try {
    addresses = await assertPublicHost(url.hostname, options.allowPrivate);
  } catch (error) {
    throw new DeliveryError((error as Error).message, elapsed());
  }
  const lookup: LookupFunction = (_hostname, lookupOptions, callback) => {
    if (lookupOptions.all) (callback as unknown as (e: null, all: typeof addresses) => void)(null, addresses);
    else callback(null, addresses[0]!.address, addresses[0]!.family);
  };
  const client = url.protocol === "https:" ? https : http;
  return new Promise<PostResult>((resolve, reject) => {
    const request = client.request(
      url,
      {
        method: "POST",
        headers: { ...headers, "content-length": String(Buffer.byteLength(body)) },
        lookup,
        timeout: options.timeoutMs ?? DELIVERY_TIMEOUT_MS,
      },
      (response) => {
        const chunks: Buffer[] = [];
        let kept = 0;
        const finish = () => {
          response.removeAllListeners();
          resolve({ status: response.statusCode ?? 0, ms: elapsed(), body: Buffer.concat(chunks).subarray(0, RESPONSE_KEPT_BYTES).toString("utf8") });
        };
        response.on("data", (chunk: Buffer) => {
          if (kept < RESPONSE_KEPT_BYTES) {
            chunks.push(chunk);
            kept += chunk.length;
          }
          if (kept >= RESPONSE_KEPT_BYTES) {
            finish();
            response.destroy();
          }
        });
        response.on("end", finish);
        response.on("error", finish);
      },
    );
    request.on("timeout", () => request.destroy(new DeliveryError(`No answer within ${Math.round((options.timeoutMs ?? DELIVERY_TIMEOUT_MS) / 1000)} s.`, elapsed())));
    request.on("error", (error) => {
      reject(error instanceof DeliveryError ? error : new DeliveryError(connectionMessage(error), elapsed()));
    });
    request.end(body);
  });
}

function connectionMessage(error: Error & { code?: string }): string {
  switch (error.code) {
    case "ECONNREFUSED":
      return "The connection was refused.";
    case "ECONNRESET":
      return "The connection was reset before an answer came.";
    case "CERT_HAS_EXPIRED":
    case "DEPTH_ZERO_SELF_SIGNED_CERT":
    case "SELF_SIGNED_CERT_IN_CHAIN":
    case "UNABLE_TO_VERIFY_LEAF_SIGNATURE":
    case "ERR_TLS_CERT_ALTNAME_INVALID":
      return `The endpoint's TLS certificate was not accepted (${error.code}).`;
    default:
      return error.message || "The request failed.";
  }
}
