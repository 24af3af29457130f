import { describe, expect, it } from "vitest";
import { leaseSize, RateLimitLeases, usageOf } from "./rate-limit";

describe("leaseSize", () => {
  it("is one request below 100 a minute, a fiftieth of the limit above, and at most 50", () => {
    expect([1, 2, 99, 100, 600, 1200, 2500, 1_000_000_000].map(leaseSize)).toEqual([1, 1, 1, 2, 12, 24, 50, 50]);
  });
});

describe("RateLimitLeases", () => {
  it("hands out a lease's counts in order, once each, then asks for another", () => {
    const leases = new RateLimitLeases();
    expect(leases.take("b", 0)).toBeNull();
    expect(leases.claimed({ bucket: "b", count: 13, take: 3, reset_ms: 30_000 }, 0)).toEqual({ count: 11, windowEnd: 30_000 });
    expect(leases.take("b", 1)).toEqual({ count: 12, windowEnd: 30_000 });
    expect(leases.take("b", 2)).toEqual({ count: 13, windowEnd: 30_000 });
    expect(leases.take("b", 3)).toBeNull();
    expect(leases.take("other", 3)).toBeNull();
  });

  it("never uses a count after its window's end, measured from when the claim was sent", () => {
    const leases = new RateLimitLeases();
    leases.claimed({ bucket: "b", count: 10, take: 10, reset_ms: "1000" }, 5_000);
    expect(leases.take("b", 5_999)).toEqual({ count: 2, windowEnd: 6_000 });
    expect(leases.take("b", 6_000)).toBeNull();
    expect(usageOf({ policy: "key", bucket: "b", limit: 10 }, { count: 2, windowEnd: 6_000 }, 5_001)).toMatchObject({ count: 2, resetSeconds: 1 });
  });

  it("keeps concurrent leases of one bucket and uses both", () => {
    const leases = new RateLimitLeases();
    leases.claimed({ bucket: "b", count: 2, take: 2, reset_ms: 60_000 }, 0);
    leases.claimed({ bucket: "b", count: 4, take: 2, reset_ms: 60_000 }, 0);
    expect([leases.take("b", 1)?.count, leases.take("b", 1)?.count, leases.take("b", 1)]).toEqual([2, 4, null]);
  });
});
