// Status-webhook ingestion for `npm run bench:trigger`: signed, Meta-shaped status payloads (sent,
// delivered, read for messages that exist) POSTed to /api/webhooks/whatsapp by autocannon.
import { sql } from "drizzle-orm";
import autocannon from "autocannon";
import { BASE_URL } from "./trigger-support";

export interface IngestionFigures {
  requests: number;
  ok: number;
  non2xx: number;
  /** Statuses the server reported applied (or recorded for applying) in its answers. */
  applied: number;
  /** Statuses answered as nothing to change (a `sent` for a message already sent). */
  ignored: number;
  /** Statuses taken in (applied + ignored) per second. */
  statusesPerSecond: number;
  appliedPerSecond: number;
  p50: number;
  p99: number;
  /** Messages whose stored status reached `read` by the end of the run (checked in the database). */
  readInDatabase: number;
}

/** A workspace on the Cloud API sender with `count` sent messages that have wamids. */
export async function prepareIngestion(count: number, label = "bench"): Promise<{ phoneNumberId: string; wabaId: string; appSecret: string; wamids: string[]; campaignId: string }> {
  const { getDb } = await import("@/db");
  const { createTriggerFixture } = await import("@/lib/testing/trigger-factories");
  const { connectTestWhatsAppSender } = await import("@/lib/testing/messaging-factories");
  const db = await getDb();
  const fixture = await createTriggerFixture();
  const sender = await connectTestWhatsAppSender(fixture.workspaceId);
  await db.execute(sql`
    insert into messages (id, workspace_id, campaign_id, sender_id, phone_number, template_name, template_language, rendered_text,
                          status, wamid, sent_at, attempts)
    select ${`msg_${label}`} || lpad(g::text, 7, '0'), ${fixture.workspaceId}, ${fixture.campaignId},
           (select id from senders where workspace_id = ${fixture.workspaceId}),
           '+4479111' || lpad(g::text, 5, '0'), 'order_shipped', 'en_US', 'Bench message', 'sent',
           ${`wamid.${label}`} || lpad(g::text, 7, '0'), now(), 1
    from generate_series(1, ${count}) g`);
  const wamids = Array.from({ length: count }, (_, i) => `wamid.${label}${String(i + 1).padStart(7, "0")}`);
  return { ...sender, wamids, campaignId: fixture.campaignId };
}

const STATUSES = ["sent", "delivered", "read"] as const;

export async function measureIngestion(
  setup: Awaited<ReturnType<typeof prepareIngestion>>,
  options: { connections: number; duration: number; statusesPerRequest?: number },
): Promise<IngestionFigures> {
  const perRequest = options.statusesPerRequest ?? 1;
  const { getChannel } = await import("@/lib/channels");
  const signPayload = (raw: string, secret: string) => getChannel("whatsapp").webhook!.sign(raw, secret);
  const { getDb } = await import("@/db");
  let next = 0;
  let applied = 0;
  let ignored = 0;
  const started = Math.floor(Date.now() / 1000);
  const result = await autocannon({
    url: `${BASE_URL}/api/webhooks/whatsapp`,
    method: "POST",
    connections: options.connections,
    duration: options.duration,
    requests: [
      {
        setupRequest: (request) => {
          // Each message gets sent, then delivered, then read, in order, as Meta reports them; a
          // batch (Meta batches up to 1,000 updates a request under load) takes the next ones in turn.
          const first = next;
          next += perRequest;
          const statuses = Array.from({ length: perRequest }, (_, i) => {
            const index = first + i;
            const wamid = setup.wamids[Math.floor(index / 3) % setup.wamids.length]!;
            return { id: wamid, status: STATUSES[index % 3]!, timestamp: String(started + (index % 3)), recipient_id: "447911100001" };
          });
          const body = JSON.stringify({
            object: "whatsapp_business_account",
            entry: [
              {
                id: setup.wabaId,
                changes: [
                  {
                    field: "messages",
                    value: {
                      messaging_product: "whatsapp",
                      metadata: { display_phone_number: "15550100", phone_number_id: setup.phoneNumberId },
                      statuses,
                    },
                  },
                ],
              },
            ],
          });
          return {
            ...request,
            body,
            headers: { "content-type": "application/json", "x-hub-signature-256": signPayload(body, setup.appSecret) },
          };
        },
        onResponse: (status, body) => {
          if (status !== 200) return;
          try {
            const answer = JSON.parse(body) as { applied?: number; pending?: number; ignored?: number };
            applied += (answer.applied ?? 0) + (answer.pending ?? 0);
            ignored += answer.ignored ?? 0;
          } catch {
            // counted as not applied
          }
        },
      },
    ],
  });
  const db = await getDb();
  // Statuses recorded for applying later (if the server batches them) get a moment to land.
  await new Promise((resolve) => setTimeout(resolve, 3000));
  const [row] = (await db.execute(
    sql`select count(*)::int as n from messages where campaign_id = ${setup.campaignId} and status = 'read'`,
  )) as unknown as { n: number }[];
  return {
    requests: result.requests.total,
    ok: result["2xx"],
    non2xx: result.non2xx,
    applied,
    ignored,
    statusesPerSecond: (applied + ignored) / options.duration,
    appliedPerSecond: applied / options.duration,
    p50: result.latency.p50,
    p99: result.latency.p99,
    readInDatabase: Number(row?.n ?? 0),
  };
}
