import { getDb } from "@/db";
import { ApiError } from "@/lib/http/errors";
import { readJsonBody } from "@/lib/http/body";
import { json, withPublic } from "@/lib/routing/route";
import { answerWebhookHandshake, handleWebhookDelivery, WEBHOOK_BODY_LIMIT_BYTES, WEBHOOK_MAX_STATUSES, webhookSignatureHeader } from "@/lib/inbound/webhook";

const CHANNEL = "whatsapp";

/** Meta's subscription handshake: echo `hub.challenge` when the verify token is one of ours. */
export const GET = withPublic(async ({ request }) => {
  const challenge = await answerWebhookHandshake(await getDb(), CHANNEL, new URL(request.url).searchParams);
  if (challenge === null) {
    throw new ApiError(
      "verification_failed",
      "hub.mode must be subscribe and hub.verify_token must match the verify token of a connected WhatsApp sender.",
    );
  }
  return new Response(challenge, { status: 200, headers: { "Content-Type": "text/plain; charset=utf-8" } });
});

/** Delivery statuses and inbound messages, signed with X-Hub-Signature-256 over the raw body. */
export const POST = withPublic(async ({ request }) => {
  const { value, raw } = await readJsonBody(request, { limitBytes: WEBHOOK_BODY_LIMIT_BYTES, rejectUnstorableText: false });
  const outcome = await handleWebhookDelivery(await getDb(), CHANNEL, { raw, body: value, headers: request.headers });
  if (!outcome.ok && outcome.reason === "too_many_statuses") {
    throw new ApiError(
      "payload_too_large",
      `The webhook carries ${outcome.statuses} statuses; at most ${WEBHOOK_MAX_STATUSES} are accepted per request. Nothing was applied: send them in smaller requests.`,
    );
  }
  if (!outcome.ok) {
    const header = webhookSignatureHeader(CHANNEL);
    throw new ApiError(
      "invalid_signature",
      outcome.reason === "unsigned" ? `The ${header} header is missing.` : `${header} does not match the body for the app secret of the WhatsApp sender it names.`,
    );
  }
  return json({ received: true, applied: outcome.applied, ignored: outcome.ignored, pending: outcome.pending, replies: outcome.replies, inbound: outcome.inbound });
});
