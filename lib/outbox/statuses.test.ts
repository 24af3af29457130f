import { eq, sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { messages, messageStatuses, type MessageStatus } from "@/db/schema";
import { randomBase62 } from "@/lib/crypto/random";
import { createTestAccount } from "@/lib/testing/factories";
import { createTestMessage, getTestMessage } from "@/lib/testing/messaging-factories";
import { applyDerivedStatuses, canAdvance, statusesBelow } from "./statuses";

describe("status rule", () => {
  it("moves forward along queued → sending → sent → delivered → read", () => {
    expect(canAdvance("queued", "sent")).toBe(true);
    expect(canAdvance("sent", "delivered")).toBe(true);
    expect(canAdvance("delivered", "read")).toBe(true);
    expect(canAdvance("sent", "read")).toBe(true);
  });

  it("never moves backwards and ignores duplicates", () => {
    expect(canAdvance("read", "delivered")).toBe(false);
    expect(canAdvance("delivered", "sent")).toBe(false);
    for (const status of messageStatuses) expect(canAdvance(status, status)).toBe(false);
  });

  it("failed can follow queued/sending/sent, loses to delivered/read, and delivered/read win over it", () => {
    expect(canAdvance("queued", "failed")).toBe(true);
    expect(canAdvance("sent", "failed")).toBe(true);
    expect(canAdvance("delivered", "failed")).toBe(false);
    expect(canAdvance("read", "failed")).toBe(false);
    expect(canAdvance("failed", "delivered")).toBe(true);
    expect(canAdvance("failed", "read")).toBe(true);
    expect(canAdvance("failed", "sent")).toBe(false);
  });

  it("skipped is final: no report moves it, and it is never below anything reported", () => {
    for (const status of messageStatuses) expect(canAdvance("skipped", status)).toBe(false);
    for (const report of ["sent", "delivered", "read", "failed"] as const) expect(statusesBelow(report)).not.toContain("skipped");
  });

  it("statusesBelow lists exactly the statuses a report may replace", () => {
    expect(statusesBelow("delivered").sort()).toEqual(["failed", "queued", "sending", "sent"]);
    expect(statusesBelow("failed").sort()).toEqual(["queued", "sending", "sent"]);
    expect(statusesBelow("sent").sort()).toEqual(["queued", "sending"]);
  });
});

describe("applyDerivedStatuses (simulated deliveries)", () => {
  async function message(status: MessageStatus, sentAt: Date | null) {
    const account = await createTestAccount();
    const id = await createTestMessage({ workspaceId: account.workspaceId, status, sentAt, providerMessageId: `wamid.DERIVED${randomBase62(12)}` });
    return id;
  }
  const derive = (ids: string[], status: "delivered" | "read") => ({
    where: sql`m.id in (select jsonb_array_elements_text(${JSON.stringify(ids)}::jsonb))`,
    status: sql`${status}::text`,
    deliveredAt: sql`m.sent_at + interval '1 second'`,
    readAt: status === "read" ? sql`m.sent_at + interval '3 seconds'` : undefined,
  });

  it("moves a sent message to read with the derived times, filling delivered_at", async () => {
    const sentAt = new Date("2026-01-01T10:00:00.000Z");
    const id = await message("sent", sentAt);
    const at = new Date("2026-01-01T10:00:05.000Z");
    expect(await applyDerivedStatuses(await getDb(), derive([id], "read"), { at })).toBe(1);
    const row = await getTestMessage(id);
    expect(row).toMatchObject({ status: "read", updatedAt: at });
    expect(row?.deliveredAt?.toISOString()).toBe("2026-01-01T10:00:01.000Z");
    expect(row?.readAt?.toISOString()).toBe("2026-01-01T10:00:03.000Z");
  });

  it("never moves a message backwards, nor a final one", async () => {
    const sentAt = new Date("2026-01-01T10:00:00.000Z");
    const read = await message("read", sentAt);
    const skipped = await message("skipped", null);
    expect(await applyDerivedStatuses(await getDb(), derive([read, skipped], "delivered"), { at: new Date() })).toBe(0);
    expect((await getTestMessage(read))?.status).toBe("read");
    expect((await getTestMessage(skipped))?.status).toBe("skipped");
  });

  it("clears an earlier failure when delivery is derived after it", async () => {
    const sentAt = new Date("2026-01-01T10:00:00.000Z");
    const id = await message("failed", sentAt);
    const db = await getDb();
    await db.update(messages).set({ errorCode: "131026", errorReason: "Undeliverable", failedAt: sentAt }).where(eq(messages.id, id));
    expect(await applyDerivedStatuses(db, derive([id], "delivered"), { at: new Date() })).toBe(1);
    expect(await getTestMessage(id)).toMatchObject({ status: "delivered", errorCode: null, errorReason: null, failedAt: null });
  });
});
