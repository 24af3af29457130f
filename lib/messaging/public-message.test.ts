import { describe, expect, it } from "vitest";
import { toPublicMessage, type PublicMessageRow } from "./public-message";

const base: PublicMessageRow = {
  id: "msg_1",
  status: "queued",
  campaignId: "cmp_1",
  phoneNumber: "+14155550101",
  templateName: "order_update",
  templateLanguage: "en_US",
  renderedText: "Hi",
  providerMessageId: null,
  errorCode: null,
  errorReason: null,
  attempts: 0,
  nextAttemptAt: new Date("2026-11-20T11:00:00.000Z"),
  source: "trigger",
  createdAt: new Date("2026-11-20T11:00:00.000Z"),
  updatedAt: new Date("2026-11-20T11:00:00.000Z"),
  sentAt: null,
  deliveredAt: null,
  readAt: null,
  failedAt: null,
};

describe("toPublicMessage", () => {
  it("names when the next attempt is due while a message waits for a retry", () => {
    const retrying = toPublicMessage({
      ...base,
      attempts: 1,
      errorCode: "131000",
      errorReason: "Something went wrong",
      nextAttemptAt: new Date("2026-11-20T11:00:04.000Z"),
    });
    expect(retrying).toMatchObject({ status: "queued", attempts: 1, nextAttemptAt: "2026-11-20T11:00:04.000Z", error: { code: "131000", reason: "Something went wrong" } });
  });

  it("has no next attempt before the first one, while sending, or once a message is final", () => {
    expect(toPublicMessage(base).nextAttemptAt).toBeNull();
    expect(toPublicMessage({ ...base, status: "sending", attempts: 1 })).toMatchObject({ status: "queued", nextAttemptAt: null });
    expect(toPublicMessage({ ...base, status: "failed", attempts: 6, errorReason: "Gave up" }).nextAttemptAt).toBeNull();
    expect(toPublicMessage({ ...base, status: "sent", attempts: 2 }).nextAttemptAt).toBeNull();
  });

  it("says what created the message", () => {
    expect(toPublicMessage({ ...base, source: "test" }).source).toBe("test");
    expect(toPublicMessage({ ...base, source: "bulk" }).source).toBe("bulk");
  });
});
