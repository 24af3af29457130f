import { beforeEach, describe, expect, it } from "vitest";
import { encryptSecret } from "@/lib/crypto/secrets";
import type { ChannelSender, OutboundSend } from "../types";
import { createWhatsAppChannel } from "./index";
import { graphError, startFakeGraph, type FakeGraph } from "./testing/fake-graph";
import { fakeGraphForFile } from "./testing/fake-graph-hooks";

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
const message: OutboundSend = { id: "msg_1", to: "+14155550126", payload: { template }, attempts: 1 };
const sender = (token = "EAAG-test-token"): ChannelSender => ({
  id: "snd_1",
  workspaceId: "ws_1",
  channel: "whatsapp",
  address: "106540352242922",
  accessTokenEncrypted: encryptSecret(token),
  throughputPerSecond: 80,
});
const accepted = (wamid: string) => ({
  body: { messaging_product: "whatsapp", contacts: [{ input: "+14155550126", wa_id: "14155550126" }], messages: [{ id: wamid, message_status: "accepted" }] },
});

async function failureFor(reply: Parameters<FakeGraph["handle"]>[0], timeoutMs = 2_000) {
  fakeGraph().handle(reply);
  const channel = createWhatsAppChannel({ timeoutMs });
  const error = await channel.send(message, sender()).then(
    () => null,
    (e: unknown) => e,
  );
  expect(error).not.toBeNull();
  return channel.classifyError(error);
}

describe("the WhatsApp channel's send (against a local fake Graph API)", () => {
  it("posts the template message to {version}/{phone-number-id}/messages with the sender's token and returns the wamid", async () => {
    fakeGraph().handle(() => accepted("wamid.HBgLMTY1MDU1NTEyMzQVAgARGBI"));
    const result = await createWhatsAppChannel().send(message, sender("EAAG-secret"));
    expect(result).toEqual({ providerMessageId: "wamid.HBgLMTY1MDU1NTEyMzQVAgARGBI" });
    const [request] = fakeGraph().requests;
    expect(request!.method).toBe("POST");
    expect(request!.path).toBe("/v23.0/106540352242922/messages");
    expect(request!.headers.authorization).toBe("Bearer EAAG-secret");
    expect(request!.body).toEqual({ messaging_product: "whatsapp", recipient_type: "individual", to: "+14155550126", type: "template", template });
  });

  it("posts a conversation's free-form text, image and document as the Cloud API's own message types", async () => {
    fakeGraph().handle(() => accepted("wamid.free-form"));
    const channel = createWhatsAppChannel();
    const text = { body: "It ships tomorrow.", preview_url: false };
    const image = { link: "https://cdn.example.com/blue.jpg", caption: "In blue" };
    const document = { link: "https://cdn.example.com/invoice.pdf", filename: "invoice.pdf" };
    for (const payload of [{ text }, { image }, { document }]) await channel.send({ ...message, payload }, sender("EAAG-secret"));
    const bodies = fakeGraph().requests.map((request) => request.body);
    expect(bodies).toEqual([
      { messaging_product: "whatsapp", recipient_type: "individual", to: "+14155550126", type: "text", text },
      { messaging_product: "whatsapp", recipient_type: "individual", to: "+14155550126", type: "image", image },
      { messaging_product: "whatsapp", recipient_type: "individual", to: "+14155550126", type: "document", document },
    ]);
  });

  it("refuses a payload with neither a template nor content, without a request", async () => {
    fakeGraph().handle(() => accepted("wamid.never"));
    const channel = createWhatsAppChannel();
    const error = await channel.send({ ...message, payload: { video: {} } }, sender()).then(
      () => null,
      (e: unknown) => e,
    );
    expect(channel.classifyError(error)).toMatchObject({ class: "permanent", code: "invalid_payload" });
    expect(fakeGraph().requests).toHaveLength(0);
  });

  it("classifies throughput (130429) as retryable with a minimum delay", async () => {
    const failure = await failureFor(() => graphError(130429, "Rate limit hit", 400));
    expect(failure).toMatchObject({ class: "retryable", code: "130429" });
    expect(failure.minDelayMs).toBeGreaterThan(0);
  });

  it("classifies pair rate (131056) and temporary errors (2, 131016) as retryable", async () => {
    expect(await failureFor(() => graphError(131056, "Pair rate limit hit"))).toMatchObject({ class: "retryable", code: "131056" });
    expect(await failureFor(() => graphError(2, "Service temporarily unavailable", 503))).toMatchObject({ class: "retryable", code: "2" });
    expect(await failureFor(() => graphError(131016, "Service unavailable", 500))).toMatchObject({ class: "retryable", code: "131016" });
  });

  it("classifies undeliverable (131026), missing template (132001) and expired token (190) as permanent with human reasons", async () => {
    const undeliverable = await failureFor(() => graphError(131026, "Message undeliverable"));
    expect(undeliverable).toMatchObject({ class: "permanent", code: "131026" });
    expect(undeliverable.reason).toMatch(/not on WhatsApp/);
    const template = await failureFor(() => graphError(132001, "Template name does not exist in the translation", 404));
    expect(template).toMatchObject({ class: "permanent", code: "132001" });
    expect(template.reason).toMatch(/not approved/);
    const token = await failureFor(() => graphError(190, "Error validating access token", 401));
    expect(token).toMatchObject({ class: "permanent", code: "190" });
    expect(token.reason).toMatch(/token/);
  });

  it("keeps Meta's message for an unknown permanent code", async () => {
    const failure = await failureFor(() => graphError(139999, "Something new", 400, "A detail from Meta"));
    expect(failure).toMatchObject({ class: "permanent", code: "139999" });
    expect(failure.reason).toContain("Something new");
  });

  it("retries an HTTP 5xx without a Graph error body", async () => {
    expect(await failureFor(() => ({ status: 502, text: "<html>Bad gateway</html>" }))).toMatchObject({ class: "retryable", code: "http_502" });
  });

  it("does not retry a request the API never answers once it was written (outcome unknown)", async () => {
    const started = Date.now();
    expect(await failureFor(() => ({ hang: true }), 300)).toMatchObject({ class: "outcome_unknown", code: "timeout" });
    expect(Date.now() - started).toBeLessThan(5_000);
    expect(fakeGraph().requests).toHaveLength(1);
  });

  it("retries when the API cannot be reached (network error)", async () => {
    const closed = await startFakeGraph();
    const url = closed.url;
    await closed.close();
    process.env.WHATSAPP_GRAPH_URL = url;
    try {
      const channel = createWhatsAppChannel();
      const error = await channel.send(message, sender()).catch((e: unknown) => e);
      expect(channel.classifyError(error)).toMatchObject({ class: "retryable", code: "network_error" });
    } finally {
      process.env.WHATSAPP_GRAPH_URL = fakeGraph().url;
    }
  });

  it("fails permanently on a 200 answer without a message id (it cannot be tracked)", async () => {
    expect(await failureFor(() => ({ body: { messaging_product: "whatsapp", messages: [] } }))).toMatchObject({ class: "permanent", code: "invalid_response" });
  });

  it("fails permanently without calling the API when the sender is not fully configured", async () => {
    const channel = createWhatsAppChannel();
    const error = await channel.send(message, { ...sender(), address: null }).catch((e: unknown) => e);
    expect(channel.classifyError(error)).toMatchObject({ class: "permanent", code: "sender_not_configured" });
    expect(fakeGraph().requests).toHaveLength(0);
  });
});
