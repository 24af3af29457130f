import { describe, expect, it, vi } from "vitest";
import { ChannelSendError } from "../send-error";
import { classifyWhatsAppError, GRAPH_ERROR_RULES, whatsappSenderTrouble } from "./errors";
import { GraphApiError } from "./graph";

const graph = (code: number, httpStatus = 400) => new GraphApiError({ kind: "graph", code, httpStatus, message: `(#${code}) x` });

describe("classifyWhatsAppError", () => {
  it.each([130429, 131056, 1, 2, 4, 80007, 131000, 131016, 133004, 131057])("retries Graph code %i", (code) => {
    expect(classifyWhatsAppError(graph(code))).toMatchObject({ class: "retryable", code: String(code) });
  });

  it.each([131026, 132001, 132000, 131008, 131009, 100, 190, 0, 10, 250, 368, 131049, 131050])("fails Graph code %i at once with a reason", (code) => {
    const failure = classifyWhatsAppError(graph(code));
    expect(failure.class).toBe("permanent");
    expect(failure.code).toBe(String(code));
    expect(failure.reason.length).toBeGreaterThan(10);
  });

  it("keys on the code, not on the HTTP status", () => {
    expect(classifyWhatsAppError(graph(131026, 500)).class).toBe("permanent");
    expect(classifyWhatsAppError(graph(130429, 400)).class).toBe("retryable");
  });

  it("slows the whole number down on 130429 and the recipient on 131056", () => {
    expect(classifyWhatsAppError(graph(130429))).toMatchObject({ senderPauseMs: 1_000, minDelayMs: 1_000 });
    expect(classifyWhatsAppError(graph(131056))).toMatchObject({ recipientPauseMs: 6_000, minDelayMs: 6_000 });
  });

  it("retries timeouts, network errors, 5xx and 429 without a Graph body; not other HTTP errors", () => {
    expect(classifyWhatsAppError(new GraphApiError({ kind: "timeout", message: "t" }))).toMatchObject({ class: "retryable", code: "timeout" });
    expect(classifyWhatsAppError(new GraphApiError({ kind: "network", message: "n" }))).toMatchObject({ class: "retryable", code: "network_error" });
    expect(classifyWhatsAppError(new GraphApiError({ kind: "http", httpStatus: 503, message: "h" }))).toMatchObject({ class: "retryable", code: "http_503" });
    expect(classifyWhatsAppError(new GraphApiError({ kind: "http", httpStatus: 429, message: "h" }))).toMatchObject({ class: "retryable" });
    expect(classifyWhatsAppError(new GraphApiError({ kind: "http", httpStatus: 404, message: "h" }))).toMatchObject({ class: "permanent", code: "http_404" });
  });

  it("settles a timeout or broken connection after the request was written as outcome unknown", () => {
    const timeout = Object.assign(new GraphApiError({ kind: "timeout", message: "t" }), { requestWritten: true });
    expect(classifyWhatsAppError(timeout)).toMatchObject({ class: "outcome_unknown", code: "timeout" });
    const broken = Object.assign(new GraphApiError({ kind: "network", message: "n" }), { requestWritten: true });
    expect(classifyWhatsAppError(broken)).toMatchObject({ class: "outcome_unknown", code: "network_error" });
  });

  it("passes ChannelSendError through and treats anything else as permanent", () => {
    expect(classifyWhatsAppError(new ChannelSendError({ class: "permanent", code: "x", reason: "y" }))).toEqual({ class: "permanent", code: "x", reason: "y" });
    expect(classifyWhatsAppError(new Error("boom"))).toMatchObject({ class: "permanent", code: "internal_error" });
  });

  it("gives every known code a reason", () => {
    for (const rule of Object.values(GRAPH_ERROR_RULES)) expect(rule.reason).toMatch(/\.$/);
  });
});

describe("whatsappSenderTrouble", () => {
  it("names the sender's own trouble and leaves one message's failures alone", () => {
    expect(whatsappSenderTrouble("190")).toBe("credentials");
    expect(whatsappSenderTrouble("250")).toBe("credentials");
    expect(whatsappSenderTrouble("http_401")).toBe("credentials");
    expect(whatsappSenderTrouble("131031")).toBe("account");
    expect(whatsappSenderTrouble("timeout")).toBe("connectivity");
    expect(whatsappSenderTrouble("http_503")).toBe("connectivity");
    expect(whatsappSenderTrouble("sender_not_configured")).toBe("setup");
    expect(whatsappSenderTrouble("131026")).toBeNull();
    expect(whatsappSenderTrouble("130429")).toBeNull();
    expect(whatsappSenderTrouble("cancelled")).toBeNull();
  });
});

describe("errors from another module graph", () => {
  // Next.js loads server modules more than once per process; an error thrown by one copy of the
  // classes must classify the same in the other (it once failed retryable sends as internal_error).
  it("classifies a GraphApiError and a ChannelSendError built from a second copy of the modules", async () => {
    vi.resetModules();
    const other = await import("./graph");
    const otherErrors = await import("../send-error");
    const { GraphApiError: LocalGraphApiError } = await import("./graph");
    vi.resetModules();
    const { classifyWhatsAppError: classifyHere } = await import("./errors");

    const throttled = new other.GraphApiError({ kind: "graph", httpStatus: 400, code: 130429, message: "(#130429) Rate limit hit" });
    expect(other.GraphApiError).not.toBe((await import("./graph")).GraphApiError);
    expect(classifyHere(throttled)).toMatchObject({ class: "retryable", code: "130429" });
    expect(classifyHere(new other.GraphApiError({ kind: "timeout", message: "slow" }))).toMatchObject({ class: "retryable", code: "timeout" });
    const failure = { class: "permanent" as const, code: "no_credentials", reason: "Missing token." };
    expect(classifyHere(new otherErrors.ChannelSendError(failure))).toEqual(failure);
    expect(new Error("plain") instanceof LocalGraphApiError).toBe(false);
  });
});
