import { createHash, timingSafeEqual } from "node:crypto";

/** String equality in time independent of where (or whether) the strings differ, lengths included. */
export function constantTimeEqual(a: string, b: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value, "utf8").digest();
  return timingSafeEqual(digest(a), digest(b));
}
