import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { encryptSecret } from "@/lib/crypto/secrets";
import { createTestAccount } from "@/lib/testing/factories";
import { graphError, startFakeGraph, type FakeGraph } from "@/lib/testing/fake-graph";
import { fakeGraphForFile } from "@/lib/testing/fake-graph-hooks";
import { createTestMessage, getTestMessage, connectTestWhatsAppSender } from "@/lib/testing/messaging-factories";
import { runDispatch, systemClock } from "../dispatcher";
import { classifySendError } from "../errors";
import { createThroughputLimiter } from "../throughput";
import type { OutboundMessage, SenderForSend } from "./types";
import { createWhatsAppProvider } from "./whatsapp";

const fakeGraph = fakeGraphForFile();
beforeEach(() => {
  fakeGraph().requests.length = 0;
});

const template = {
  name: "order_update",
  language: { code: "en_US" },
  components: [
    { type: "header", parameters: [{ type: "text", text: "Order 42" }] },
    { type: "body", parameters: [{ type: "text", parameter_name: "first_name", text: "Jessica" }] },
    { type: "button", sub_type: "url", index: "0", parameters: [{ type: "text", text: "SKBUP2%2F4CPIG9" }] },
  ],
};
const message: OutboundMessage = { id: "msg_1", phoneNumber: "+14155550126", payload: { template }, attempts: 1 };
const sender = (token = "EAAG-test-token"): SenderForSend => ({
  id: "snd_1",
  workspaceId: "ws_1",
  provider: "whatsapp",
  phoneNumberId: "106540352242922",
  accessTokenEncrypted: encryptSecret(token),
  throughputPerSecond: 80,
});
const accepted = (wamid: string) => ({
  body: { messaging_product: "whatsapp", contacts: [{ input: "+14155550126", wa_id: "14155550126" }], messages: [{ id: wamid, message_status: "accepted" }] },
});

async function failureFor(reply: Parameters<FakeGraph["handle"]>[0], timeoutMs = 2_000) {
  fakeGraph().handle(reply);
  const error = await createWhatsAppProvider({ timeoutMs }).send(message, sender()).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).not.toBeNull();
  return classifySendError(error);
}

describe("WhatsApp Cloud API provider (against a local fake Graph API)", () => {
  it("posts the template message to {version}/{phone-number-id}/messages with the sender's token and returns the wamid", async () => {
    fakeGraph().handle(() => accepted("wamid.HBgLMTY1MDU1NTEyMzQVAgARGBI"));
    const result = await createWhatsAppProvider().send(message, sender("EAAG-secret"));
    expect(result).toEqual({ wamid: "wamid.HBgLMTY1MDU1NTEyMzQVAgARGBI" });
    const [request] = fakeGraph().requests;
    expect(request!.method).toBe("POST");
    expect(request!.path).toBe("/v23.0/106540352242922/messages");
    expect(request!.headers.authorization).toBe("Bearer EAAG-secret");
    expect(request!.body).toEqual({ messaging_product: "whatsapp", recipient_type: "individual", to: "+14155550126", type: "template", template });
  });

  it("classifies throughput (130429) as retryable with a minimum delay", async () => {
    const failure = await failureFor(() => graphError(130429, "Rate limit hit", 400));
    expect(failure).toMatchObject({ retryable: true, code: "130429" });
    expect(failure.minDelayMs).toBeGreaterThan(0);
  });

  it("classifies pair rate (131056) and temporary errors (2, 131016) as retryable", async () => {
    expect(await failureFor(() => graphError(131056, "Pair rate limit hit"))).toMatchObject({ retryable: true, code: "131056" });
    expect(await failureFor(() => graphError(2, "Service temporarily unavailable", 503))).toMatchObject({ retryable: true, code: "2" });
    expect(await failureFor(() => graphError(131016, "Service unavailable", 500))).toMatchObject({ retryable: true, code: "131016" });
  });

  it("classifies undeliverable (131026), missing template (132001) and expired token (190) as permanent with human reasons", async () => {
    const undeliverable = await failureFor(() => graphError(131026, "Message undeliverable"));
    expect(undeliverable).toMatchObject({ retryable: false, code: "131026" });
    expect(undeliverable.reason).toMatch(/not on WhatsApp/);
    const template = await failureFor(() => graphError(132001, "Template name does not exist in the translation", 404));
    expect(template).toMatchObject({ retryable: false, code: "132001" });
    expect(template.reason).toMatch(/not approved/);
    const token = await failureFor(() => graphError(190, "Error validating access token", 401));
    expect(token).toMatchObject({ retryable: false, code: "190" });
    expect(token.reason).toMatch(/token/);
  });

  it("keeps Meta's message for an unknown permanent code", async () => {
    const failure = await failureFor(() => graphError(139999, "Something new", 400, "A detail from Meta"));
    expect(failure).toMatchObject({ retryable: false, code: "139999" });
    expect(failure.reason).toContain("Something new");
  });

  it("retries an HTTP 5xx without a Graph error body", async () => {
    expect(await failureFor(() => ({ status: 502, text: "<html>Bad gateway</html>" }))).toMatchObject({ retryable: true, code: "http_502" });
  });

  it("does not retry a request the API never answers once it was written (outcome unknown)", async () => {
    const started = Date.now();
    expect(await failureFor(() => ({ hang: true }), 300)).toMatchObject({ retryable: false, outcomeUnknown: true, code: "timeout" });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(fakeGraph().requests).toHaveLength(1);
  });

  it("retries when the API cannot be reached (network error)", async () => {
    const closed = await startFakeGraph();
    const url = closed.url;
    await closed.close();
    process.env.WHATSAPP_GRAPH_URL = url;
    try {
      const error = await createWhatsAppProvider().send(message, sender()).catch((e: unknown) => e);
      expect(classifySendError(error)).toMatchObject({ retryable: true, code: "network_error" });
    } finally {
      process.env.WHATSAPP_GRAPH_URL = fakeGraph().url;
    }
  });

  it("fails permanently on a 200 answer without a message id (it cannot be tracked)", async () => {
    expect(await failureFor(() => ({ body: { messaging_product: "whatsapp", messages: [] } }))).toMatchObject({ retryable: false, code: "invalid_response" });
  });

  it("fails permanently without calling the API when the sender is not fully configured", async () => {
    const error = await createWhatsAppProvider().send(message, { ...sender(), phoneNumberId: null }).catch((e: unknown) => e);
    expect(classifySendError(error)).toMatchObject({ retryable: false, code: "sender_not_configured" });
    expect(fakeGraph().requests).toHaveLength(0);
  });
});

describe("dispatching through a WhatsApp sender", () => {
  it("stores the wamid on success, fails undeliverable numbers, and schedules retries for throughput errors", async () => {
    const account = await createTestAccount();
    const credentials = await connectTestWhatsAppSender(account.workspaceId);
    // Due in 10 minutes and dispatched with a clock that far ahead, scoped to this workspace: test
    // files share the Postgres database, and their passes must not take these messages.
    const ahead = 10 * 60_000;
    const nextAttemptAt = new Date(Date.now() + ahead);
    const ok = await createTestMessage({ workspaceId: account.workspaceId, phoneNumber: "+14155550101", nextAttemptAt });
    const bad = await createTestMessage({ workspaceId: account.workspaceId, phoneNumber: "+14155550102", nextAttemptAt });
    const busy = await createTestMessage({ workspaceId: account.workspaceId, phoneNumber: "+14155550103", nextAttemptAt });
    fakeGraph().handle((request) => {
      const to = (request.body as { to: string }).to;
      if (to === "+14155550102") return graphError(131026, "Message undeliverable");
      if (to === "+14155550103") return graphError(130429, "Rate limit hit");
      return accepted(`wamid.FAKE${to}`);
    });
    await runDispatch(
      // The longest backoff (about 2 s): the 130429 also pauses the sender for a second of this pass.
      { db: await getDb(), clock: { now: () => Date.now() + ahead, sleep: systemClock.sleep }, random: () => 0.999, limiter: createThroughputLimiter(), providers: { sandbox: createWhatsAppProvider(), whatsapp: createWhatsAppProvider() } },
      // One pass over the three: a 130429 slows the sender for a second, and a longer pass would retry it.
      { workspaceIds: [account.workspaceId], limit: 3 },
    );
    expect(fakeGraph().requests.every((r) => r.path === `/v23.0/${credentials.phoneNumberId}/messages`)).toBe(true);
    expect(fakeGraph().requests.every((r) => r.headers.authorization === `Bearer ${credentials.accessToken}`)).toBe(true);
    expect(await getTestMessage(ok)).toMatchObject({ status: "sent", wamid: "wamid.FAKE+14155550101" });
    expect(await getTestMessage(bad)).toMatchObject({ status: "failed", errorCode: "131026", wamid: null });
    const retry = await getTestMessage(busy);
    expect(retry).toMatchObject({ status: "queued", errorCode: "130429", attempts: 1 });
    expect(retry.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + ahead);
  });
});
