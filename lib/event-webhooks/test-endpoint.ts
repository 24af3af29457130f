// The built-in test endpoint: an endpoint whose URL is TEST_ENDPOINT_URL. Its deliveries are signed
// like any other, then recorded here instead of being POSTed (nothing leaves the process, so it
// works on Vercel and on a laptop alike, without WEBHOOKS_ALLOW_PRIVATE_URLS), and its page shows
// each one with the signature checked the way a receiver would check it.
import { createHmac, timingSafeEqual } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { webhookEndpoints, webhookTestReceipts } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { decryptSecret } from "@/lib/crypto/secrets";
import { notFound } from "@/lib/http/errors";
import { ENDPOINT_NOT_FOUND, type TestReceiptView } from "./schemas";
import { signingKey } from "./signing";

/** Receipts kept per test endpoint (older ones are deleted as new ones arrive). */
export const TEST_RECEIPTS_KEPT = 50;

/** What the test endpoint answers, as a receiver would: recorded in the delivery log like any answer. */
export const TEST_ENDPOINT_ANSWER = "Received by the built-in test endpoint.";

/** Records one attempt to the test endpoint (one statement: insert, then trim to the newest 50). */
export async function recordTestReceipt(
  db: Executor,
  receipt: { endpointId: string; eventId: string; eventType: string; headers: Record<string, string>; body: string },
): Promise<void> {
  await db.execute(sql`
    with inserted as (
      insert into webhook_test_receipts (id, workspace_id, endpoint_id, event_id, event_type, headers, body)
      select ${newId("whr")}, e.workspace_id, e.id, ${receipt.eventId}, ${receipt.eventType}, ${JSON.stringify(receipt.headers)}::jsonb, ${receipt.body}
      from webhook_endpoints e where e.id = ${receipt.endpointId}
      returning endpoint_id
    )
    delete from webhook_test_receipts r
    where r.endpoint_id = ${receipt.endpointId} and r.id in (
      select id from webhook_test_receipts where endpoint_id = ${receipt.endpointId}
      order by received_at desc, id desc offset ${TEST_RECEIPTS_KEPT - 1}
    ) and exists (select 1 from inserted)`);
}

/**
 * True when `webhook-signature` holds a `v1` signature of `<webhook-id>.<webhook-timestamp>.<body>`
 * under the secret (Standard Webhooks), compared in constant time.
 */
export function signatureMatches(secret: string, headers: Record<string, string>, body: string): boolean {
  const id = headers["webhook-id"];
  const timestamp = headers["webhook-timestamp"];
  const signatures = headers["webhook-signature"];
  if (!id || !timestamp || !signatures) return false;
  const expected = Buffer.from(createHmac("sha256", signingKey(secret)).update(`${id}.${timestamp}.${body}`).digest("base64"));
  return signatures.split(" ").some((entry) => {
    const [version, value] = entry.split(",");
    const given = Buffer.from(value ?? "");
    return version === "v1" && given.length === expected.length && timingSafeEqual(given, expected);
  });
}

/** The newest receipts of a test endpoint of the workspace (404 for another workspace's endpoint). */
export async function listTestReceipts(db: Executor, workspaceId: string, endpointId: string): Promise<TestReceiptView[]> {
  const [endpoint] = await db
    .select({ secretEncrypted: webhookEndpoints.secretEncrypted })
    .from(webhookEndpoints)
    .where(and(eq(webhookEndpoints.id, endpointId), eq(webhookEndpoints.workspaceId, workspaceId)));
  if (!endpoint) throw notFound(ENDPOINT_NOT_FOUND);
  const secret = decryptSecret(endpoint.secretEncrypted);
  const rows = await db
    .select()
    .from(webhookTestReceipts)
    .where(eq(webhookTestReceipts.endpointId, endpointId))
    .orderBy(desc(webhookTestReceipts.receivedAt), desc(webhookTestReceipts.id))
    .limit(TEST_RECEIPTS_KEPT);
  return rows.map((row) => ({
    id: row.id,
    eventId: row.eventId,
    eventType: row.eventType,
    headers: row.headers,
    body: row.body,
    receivedAt: row.receivedAt.toISOString(),
    signatureValid: signatureMatches(secret, row.headers, row.body),
  }));
}
