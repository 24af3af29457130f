import { describe, expect, it } from "vitest";
import { connectionKey, saveConfirmation, type SenderFormState } from "./save-confirmation";

const sandbox: SenderFormState["current"] = { provider: "sandbox", phoneNumberId: null, wabaId: null };
const connected: SenderFormState["current"] = { provider: "whatsapp", phoneNumberId: "106540352242922", wabaId: "102290129340398" };

const form = (overrides: Partial<SenderFormState>): SenderFormState => ({
  current: connected,
  provider: "whatsapp",
  phoneNumberId: "106540352242922",
  wabaId: "102290129340398",
  accessToken: "",
  test: null,
  pendingMessages: 0,
  ...overrides,
});

describe("asking before saving the sender", () => {
  it("saves at once when nothing that sends changes", () => {
    expect(saveConfirmation(form({}))).toBeNull();
    expect(saveConfirmation(form({ current: sandbox, provider: "sandbox" }))).toBeNull();
  });

  it("asks for credentials whose test failed, even unchanged ones", () => {
    const ask = saveConfirmation(form({ test: { ok: false } }))!;
    expect(ask).toMatchObject({ title: "Save settings that failed the connection test?", unverified: "failed", switching: false, confirmLabel: "Save anyway" });
  });

  it("asks for new credentials that were not tested, not for tested ones", () => {
    expect(saveConfirmation(form({ accessToken: "EAAG-new" }))).toMatchObject({ unverified: "untested", title: "Save settings without testing the connection?" });
    expect(saveConfirmation(form({ accessToken: "EAAG-new", test: { ok: true } }))).toBeNull();
  });

  it("switching to WhatsApp with a failed test says both, and how many queued messages will fail", () => {
    const ask = saveConfirmation(form({ current: sandbox, test: { ok: false }, pendingMessages: 3 }))!;
    expect(ask).toMatchObject({ unverified: "failed", switching: true });
    expect(ask.paragraphs.join(" ")).toMatch(/3 messages of the current sender are still queued/);
    expect(ask.paragraphs.join(" ")).toMatch(/sender changed/);
  });

  it("switching back to the sandbox asks too, even with nothing queued", () => {
    const ask = saveConfirmation(form({ provider: "sandbox", pendingMessages: 1 }))!;
    expect(ask).toMatchObject({ title: "Switch to the sandbox?", confirmLabel: "Switch to the sandbox", unverified: null, switching: true });
    expect(ask.paragraphs.join(" ")).toMatch(/1 message of the current sender is still queued/);
    expect(saveConfirmation(form({ provider: "sandbox" }))!.paragraphs.join(" ")).toMatch(/none will fail/);
  });

  it("a new phone number is a new sender", () => {
    const ask = saveConfirmation(form({ phoneNumberId: "106540352249999", test: { ok: true } }))!;
    expect(ask).toMatchObject({ title: "Send from another phone number?", switching: true, unverified: null, confirmLabel: "Switch sender" });
  });

  it("remembers a test by the credentials it tested", () => {
    expect(connectionKey({ phoneNumberId: " 1065 ", accessToken: "t" })).toBe(connectionKey({ phoneNumberId: "1065", accessToken: "t " }));
    expect(connectionKey({ phoneNumberId: "1065", accessToken: "a" })).not.toBe(connectionKey({ phoneNumberId: "1065", accessToken: "b" }));
  });
});
