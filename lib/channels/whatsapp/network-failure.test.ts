import { describe, expect, it } from "vitest";
import { describeNetworkFailure, networkFailureCause } from "./network-failure";

const fetchFailed = (cause: unknown) => Object.assign(new TypeError("fetch failed"), { cause });
const systemError = (code: string) => Object.assign(new Error(code), { code });

describe("networkFailureCause", () => {
  it("finds the system code under fetch's cause, also inside an AggregateError", () => {
    expect(networkFailureCause(fetchFailed(systemError("ENOTFOUND")))).toEqual({ cause: "dns", code: "ENOTFOUND" });
    expect(networkFailureCause(fetchFailed(new AggregateError([systemError("ECONNREFUSED"), systemError("ECONNREFUSED")])))).toEqual({
      cause: "refused",
      code: "ECONNREFUSED",
    });
    expect(networkFailureCause(fetchFailed(systemError("UND_ERR_CONNECT_TIMEOUT"))).cause).toBe("timeout");
    expect(networkFailureCause(fetchFailed(systemError("CERT_HAS_EXPIRED"))).cause).toBe("tls");
    expect(networkFailureCause(fetchFailed(systemError("ERR_TLS_CERT_ALTNAME_INVALID"))).cause).toBe("tls");
    expect(networkFailureCause(fetchFailed(systemError("ECONNRESET"))).cause).toBe("reset");
    expect(networkFailureCause(new TypeError("fetch failed"))).toEqual({ cause: "unknown", code: null });
  });
});

describe("describeNetworkFailure", () => {
  it("names the host and the cause in words, with the code for support", () => {
    expect(describeNetworkFailure(fetchFailed(systemError("ENOTFOUND")), new URL("https://graph.facebook.com/v23.0/1"))).toBe(
      "The address graph.facebook.com could not be resolved (DNS). Check the server's internet access and DNS settings. (ENOTFOUND)",
    );
    expect(describeNetworkFailure(new TypeError("fetch failed"), "https://graph.facebook.com")).toBe("The request to graph.facebook.com failed before an answer arrived.");
  });
});
