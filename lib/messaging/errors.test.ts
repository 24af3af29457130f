import { describe, expect, it, vi } from "vitest";
import { GraphApiError } from "@/lib/whatsapp/graph";
import { BACKOFF_BASE_MS, BACKOFF_CAP_MS, classifySendError, GRAPH_ERROR_RULES, retryDelayMs, SendError } from "./errors";

const graph = (code: number, httpStatus = 400) => new GraphApiError({ kind: "graph", code, httpStatus, message: `(#${code}) x` });

describe("classifySendError", () => {
  it.each([130429, 131056, 1, 2, 4, 80007, 131000, 131016, 133004, 131057])("retries Graph code %i", (code) => {
    expect(classifySendError(graph(code))).toMatchObject({ retryable: true, code: String(code) });
  });

  it.each([131026, 132001, 132000, 131008, 131009, 100, 190, 0, 10, 250, 368, 131049, 131050])("fails Graph code %i at once with a reason", (code) => {
    const failure = classifySendError(graph(code));
    expect(failure.retryable).toBe(false);
    expect(failure.code).toBe(String(code));
    expect(failure.reason.length).toBeGreaterThan(10);
  });

  it("keys on the code, not on the HTTP status", () => {
    expect(classifySendError(graph(131026, 500)).retryable).toBe(false);
    expect(classifySendError(graph(130429, 400)).retryable).toBe(true);
  });

  it("retries timeouts, network errors, 5xx and 429 without a Graph body; not other HTTP errors", () => {
    expect(classifySendError(new GraphApiError({ kind: "timeout", message: "t" }))).toMatchObject({ retryable: true, code: "timeout" });
    expect(classifySendError(new GraphApiError({ kind: "network", message: "n" }))).toMatchObject({ retryable: true, code: "network_error" });
    expect(classifySendError(new GraphApiError({ kind: "http", httpStatus: 503, message: "h" }))).toMatchObject({ retryable: true, code: "http_503" });
    expect(classifySendError(new GraphApiError({ kind: "http", httpStatus: 429, message: "h" }))).toMatchObject({ retryable: true });
    expect(classifySendError(new GraphApiError({ kind: "http", httpStatus: 404, message: "h" }))).toMatchObject({ retryable: false, code: "http_404" });
  });

  it("passes SendError through and treats anything else as permanent", () => {
    expect(classifySendError(new SendError({ retryable: false, code: "x", reason: "y" }))).toEqual({ retryable: false, code: "x", reason: "y" });
    expect(classifySendError(new Error("boom"))).toMatchObject({ retryable: false, code: "internal_error" });
  });

  it("gives every known code a reason", () => {
    for (const rule of Object.values(GRAPH_ERROR_RULES)) expect(rule.reason).toMatch(/\.$/);
  });
});

describe("retryDelayMs", () => {
  it("is full jitter under an exponential ceiling, with a floor", () => {
    expect(retryDelayMs(1, {}, () => 0.999)).toBeLessThan(BACKOFF_BASE_MS);
    expect(retryDelayMs(3, {}, () => 0.999)).toBeGreaterThan(BACKOFF_BASE_MS * 3);
    expect(retryDelayMs(3, {}, () => 0.999)).toBeLessThan(BACKOFF_BASE_MS * 4);
    expect(retryDelayMs(30, {}, () => 0.999)).toBeLessThanOrEqual(BACKOFF_CAP_MS);
    expect(retryDelayMs(1, { minDelayMs: 6_000 }, () => 0)).toBe(6_000);
    expect(retryDelayMs(1, {}, () => 0)).toBeGreaterThan(0);
  });

  it("spreads retries out (jitter)", () => {
    const delays = new Set(Array.from({ length: 50 }, () => retryDelayMs(4, {})));
    expect(delays.size).toBeGreaterThan(40);
  });
});

describe("errors from another module graph", () => {
  // Next.js loads server modules more than once per process; an error thrown by one copy of the
  // classes must classify the same in the other (it once failed retryable sends as internal_error).
  it("classifies a GraphApiError and a SendError built from a second copy of the modules", async () => {
    vi.resetModules();
    const other = await import("@/lib/whatsapp/graph");
    const otherErrors = await import("./errors");
    const { GraphApiError: LocalGraphApiError } = await import("@/lib/whatsapp/graph");
    vi.resetModules();
    const { classifySendError: classifyHere } = await import("./errors");

    const throttled = new other.GraphApiError({ kind: "graph", httpStatus: 400, code: 130429, message: "(#130429) Rate limit hit" });
    expect(other.GraphApiError).not.toBe((await import("@/lib/whatsapp/graph")).GraphApiError);
    expect(classifyHere(throttled)).toMatchObject({ retryable: true, code: "130429" });
    expect(classifyHere(new other.GraphApiError({ kind: "timeout", message: "slow" }))).toMatchObject({ retryable: true, code: "timeout" });
    const failure = { retryable: false, code: "no_credentials", reason: "Missing token." };
    expect(classifyHere(new otherErrors.SendError(failure))).toEqual(failure);
    expect(new Error("plain") instanceof LocalGraphApiError).toBe(false);
  });
});
