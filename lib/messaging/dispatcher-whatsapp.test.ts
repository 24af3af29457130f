import { beforeEach, describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { createWhatsAppChannel, fakeGraphForFile, graphError } from "@/lib/channels/whatsapp/testing";
import { fakeChannels } from "@/lib/testing/fake-channels";
import { createTestAccount } from "@/lib/testing/factories";
import { createTestMessage, getTestMessage, connectTestWhatsAppSender } from "@/lib/testing/messaging-factories";
import { runDispatch, systemClock } from "./dispatcher";
import { createThroughputLimiter } from "./throughput";

const fakeGraph = fakeGraphForFile();
beforeEach(() => {
  fakeGraph().requests.length = 0;
});

const accepted = (wamid: string) => ({
  body: { messaging_product: "whatsapp", contacts: [{ input: "+14155550126", wa_id: "14155550126" }], messages: [{ id: wamid, message_status: "accepted" }] },
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
      { db: await getDb(), clock: { now: () => Date.now() + ahead, sleep: systemClock.sleep }, random: () => 0.999, limiter: createThroughputLimiter(), channels: fakeChannels(createWhatsAppChannel().send) },
      // One pass over the three: a 130429 slows the sender for a second, and a longer pass would retry it.
      { workspaceIds: [account.workspaceId], limit: 3 },
    );
    expect(fakeGraph().requests.every((r) => r.path === `/v23.0/${credentials.phoneNumberId}/messages`)).toBe(true);
    expect(fakeGraph().requests.every((r) => r.headers.authorization === `Bearer ${credentials.accessToken}`)).toBe(true);
    expect(await getTestMessage(ok)).toMatchObject({ status: "sent", providerMessageId: "wamid.FAKE+14155550101" });
    expect(await getTestMessage(bad)).toMatchObject({ status: "failed", errorCode: "131026", providerMessageId: null });
    const retry = await getTestMessage(busy);
    expect(retry).toMatchObject({ status: "queued", errorCode: "130429", attempts: 1 });
    expect(retry.nextAttemptAt.getTime()).toBeGreaterThan(Date.now() + ahead);
  });
});
