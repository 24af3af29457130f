// What a pass is handed instead of importing it (lib/engine wires the real ones): housekeeping and
// simulated deliveries run beside the claims, guarded; the renderer fills bare bulk rows as claimed.
import { eq } from "drizzle-orm";
import { describe, expect, it, vi } from "vitest";
import { getDb, type Executor } from "@/db";
import { campaigns, messages } from "@/db/schema";
import { newId } from "@/lib/crypto/random";
import { createTestAccount } from "@/lib/testing/factories";
import { createTestMessage, getTestMessage, TEST_TEMPLATE_PAYLOAD } from "@/lib/testing/messaging-factories";
import type { ClaimRenderer } from "./claims";
import { runDispatch, systemClock, type DispatchDeps } from "./dispatcher";
import { fakeChannels } from "@/lib/testing/fake-channels";

const FUTURE = 20 * 60_000;
const clock = { now: () => Date.now() + FUTURE, sleep: systemClock.sleep };

function recordingChannels() {
  const sent: { id: string; payload: Record<string, unknown> }[] = [];
  const channels = fakeChannels(async (message) => {
    sent.push({ id: message.id, payload: message.payload });
    return { providerMessageId: `wamid.DEPS.${message.id}` };
  });
  return { sent, channels };
}

const dispatch = async (workspaceId: string, deps: Partial<DispatchDeps>) =>
  runDispatch({ db: await getDb(), clock, ...deps }, { workspaceIds: [workspaceId], deadlineMs: 10_000 });

describe("a pass's injected dependencies", () => {
  it("runs housekeeping and simulated deliveries beside its claims; a failing one never stops sending", async () => {
    const account = await createTestAccount();
    const id = await createTestMessage({ workspaceId: account.workspaceId, nextAttemptAt: new Date(Date.now() + FUTURE - 1_000) });
    const { sent, channels } = recordingChannels();
    const log = vi.spyOn(console, "error").mockImplementation(() => {});
    const housekeeping = vi.fn(async () => {
      throw new Error("housekeeping broke");
    });
    const simulateDeliveries = vi.fn(async (_db: Executor, now: Date) => (now.getTime() > Date.now() ? 7 : 0));
    const summary = await dispatch(account.workspaceId, { channels, housekeeping, simulateDeliveries });
    log.mockRestore();
    expect(housekeeping).toHaveBeenCalledTimes(1);
    expect(simulateDeliveries).toHaveBeenCalledTimes(1);
    // Given the pass's clock, and its count is the pass's `simulated`.
    expect(summary.simulated).toBe(7);
    expect(sent.map((s) => s.id)).toEqual([id]);
    expect((await getTestMessage(id)).status).toBe("sent");
  });

  it("renders bare bulk rows with the renderer it is given, and leaves out the rows it drops", async () => {
    const account = await createTestAccount();
    const db = await getDb();
    const campaignId = newId("cmp");
    await db.insert(campaigns).values({ id: campaignId, workspaceId: account.workspaceId, name: "Bare", kind: "bulk", status: "sending", launchedAt: new Date() });
    const [kept, dropped] = [newId("msg"), newId("msg")];
    await db.insert(messages).values(
      [kept, dropped].map((id, i) => ({
        id,
        workspaceId: account.workspaceId,
        campaignId,
        source: "bulk" as const,
        phoneNumber: `+1415555010${i}`,
        templateName: "order_update",
        templateLanguage: "en_US",
        renderedText: "",
        payload: {},
        nextAttemptAt: new Date(Date.now() + FUTURE - 1_000),
      })),
    );
    const renderClaimed: ClaimRenderer = async (tx, rows) => {
      await tx.update(messages).set({ status: "skipped", lockedUntil: null }).where(eq(messages.id, dropped));
      return { rendered: new Map(rows.filter((r) => r.id === kept).map((r) => [r.id, TEST_TEMPLATE_PAYLOAD])), dropped: new Set([dropped]) };
    };
    const { sent, channels } = recordingChannels();
    await dispatch(account.workspaceId, { channels, renderClaimed });
    expect(sent).toEqual([{ id: kept, payload: TEST_TEMPLATE_PAYLOAD }]);
    expect((await getTestMessage(kept)).status).toBe("sent");
    expect((await getTestMessage(dropped)).status).toBe("skipped");
  });
});
