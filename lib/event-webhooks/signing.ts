// Outbound event signatures in the Standard Webhooks scheme, so receivers can verify them with any
// of its libraries: `webhook-signature: v1,<base64 HMAC-SHA256 of "<id>.<timestamp>.<body>">` under
// the endpoint's secret (`whsec_` + base64 of 24 random bytes; the HMAC key is those bytes).
import { createHmac, randomBytes } from "node:crypto";

export const SECRET_PREFIX = "whsec_";

export function generateSigningSecret(): string {
  return SECRET_PREFIX + randomBytes(24).toString("base64");
}

export interface SignedDelivery {
  /** The event id: the same on every attempt, for receivers to drop repeats. */
  id: string;
  /** Unix seconds of this attempt: receivers refuse old ones (replays). */
  timestamp: number;
  body: string;
}

/** The HMAC key of a `whsec_…` secret: the bytes its base64 part encodes. */
export function signingKey(secret: string): Buffer {
  return Buffer.from(secret.startsWith(SECRET_PREFIX) ? secret.slice(SECRET_PREFIX.length) : secret, "base64");
}

export function signature(secret: string, delivery: SignedDelivery): string {
  const key = signingKey(secret);
  const mac = createHmac("sha256", key).update(`${delivery.id}.${delivery.timestamp}.${delivery.body}`).digest("base64");
  return `v1,${mac}`;
}

/** The headers of one attempt. */
export function signedHeaders(secret: string, delivery: SignedDelivery): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": "Sendstream-Webhooks/1.0",
    "webhook-id": delivery.id,
    "webhook-timestamp": String(delivery.timestamp),
    "webhook-signature": signature(secret, delivery),
  };
}
