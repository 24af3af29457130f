import { afterEach, describe, expect, it } from "vitest";
import { clientIp, trustedProxyHops } from "./client-ip";

const request = (forwardedFor?: string) =>
  new Request("http://localhost/x", { headers: forwardedFor === undefined ? {} : { "x-forwarded-for": forwardedFor } });

const saved = process.env.TRUSTED_PROXY_HOPS;
afterEach(() => {
  if (saved === undefined) delete process.env.TRUSTED_PROXY_HOPS;
  else process.env.TRUSTED_PROXY_HOPS = saved;
});

describe("clientIp", () => {
  it("ignores X-Forwarded-For entirely by default: the client may have written it", () => {
    delete process.env.TRUSTED_PROXY_HOPS;
    expect(trustedProxyHops()).toBe(0);
    expect(clientIp(request("203.0.113.7"))).toBeNull();
  });

  it("takes the entry the trusted proxy added, not what the client claimed", () => {
    process.env.TRUSTED_PROXY_HOPS = "1";
    expect(clientIp(request("1.2.3.4, 203.0.113.7"))).toBe("203.0.113.7");
    expect(clientIp(request("1.2.3.4, 203.0.113.7, 10.0.0.2"), 2)).toBe("203.0.113.7");
    expect(clientIp(request("203.0.113.7"), 2)).toBeNull();
    expect(clientIp(request(), 1)).toBeNull();
  });

  it("normalises ports, brackets and IPv4-mapped addresses; refuses anything that is not an address", () => {
    expect(clientIp(request("203.0.113.7:51234"), 1)).toBe("203.0.113.7");
    expect(clientIp(request("[2001:DB8::1]:443"), 1)).toBe("2001:db8::1");
    expect(clientIp(request("::ffff:203.0.113.7"), 1)).toBe("203.0.113.7");
    expect(clientIp(request("evil, <script>"), 1)).toBeNull();
    expect(clientIp(request("unknown"), 1)).toBeNull();
  });
});
