import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { graphError, startFakeGraph, type FakeGraph } from "./testing/fake-graph";
import { describeMessagingLimit, getPhoneNumberInfo, listMessageTemplates } from "./business";
import { GraphApiError, type GraphConfig } from "./graph";

let graph: FakeGraph;
let config: GraphConfig;

beforeAll(async () => {
  graph = await startFakeGraph();
  config = { baseUrl: graph.url, version: "v23.0", accessToken: "EAAtoken", timeoutMs: 2000 };
});
afterAll(() => graph.close());

describe("getPhoneNumberInfo", () => {
  it("reads the display number, throughput level and messaging limit", async () => {
    graph.handle((req) =>
      req.path === "/v23.0/1234567890"
        ? {
            body: {
              id: "1234567890",
              display_phone_number: "+1 555-0100",
              verified_name: "Demo Shop",
              quality_rating: "GREEN",
              throughput: { level: "HIGH" },
              whatsapp_business_manager_messaging_limit: "TIER_2K",
            },
          }
        : { status: 404, body: {} },
    );
    const info = await getPhoneNumberInfo(config, "1234567890");
    expect(info).toEqual({
      id: "1234567890",
      displayPhoneNumber: "+1 555-0100",
      verifiedName: "Demo Shop",
      qualityRating: "GREEN",
      throughputLevel: "HIGH",
      throughputPerSecond: 1000,
      messagingLimit: "TIER_2K",
    });
    const request = graph.requests.at(-1)!;
    expect(request.headers.authorization).toBe("Bearer EAAtoken");
    expect(request.query.get("fields")).toContain("whatsapp_business_manager_messaging_limit");
  });

  it("passes Graph errors through with their code", async () => {
    graph.handle(() => graphError(190, "Invalid OAuth access token.", 401));
    const error = await getPhoneNumberInfo(config, "1234567890").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(GraphApiError);
    expect(error).toMatchObject({ code: 190, httpStatus: 401, kind: "graph" });
  });
});

describe("listMessageTemplates", () => {
  it("follows the cursor paging until there is no next page", async () => {
    const pages: Record<string, unknown> = {
      "": {
        data: [{ id: "1", name: "a", language: "en_US", category: "UTILITY", status: "APPROVED", parameter_format: "NAMED", components: [{ type: "BODY", text: "{{x}}" }] }],
        paging: { cursors: { before: "b0", after: "c1" }, next: `${"https://graph.facebook.com"}/next1` },
      },
      c1: {
        data: [
          { id: "2", name: "b", language: "de", category: "MARKETING", status: "PENDING", components: [], rejected_reason: "NONE" },
          { id: "3", language: "x" },
          { id: "4", name: "c", language: "fr", category: "MARKETING", status: "REJECTED", components: [], rejected_reason: "INCORRECT_CATEGORY" },
          { id: "5", name: "d", language: "fr", category: "MARKETING", status: "REJECTED", components: [], rejected_reason: "NONE" },
        ],
        paging: { cursors: { before: "c1", after: "c2" } },
      },
    };
    graph.handle((req) => (req.path === "/v23.0/555/message_templates" ? { body: pages[req.query.get("after") ?? ""] } : { status: 404, body: {} }));
    const before = graph.requests.length;
    const list = await listMessageTemplates(config, "555", { pageSize: 1 });
    expect(list).toEqual([
      { id: "1", name: "a", language: "en_US", category: "UTILITY", status: "APPROVED", parameterFormat: "NAMED", components: [{ type: "BODY", text: "{{x}}" }], statusReason: null },
      { id: "2", name: "b", language: "de", category: "MARKETING", status: "PENDING", parameterFormat: "POSITIONAL", components: [], statusReason: null },
      {
        id: "4",
        name: "c",
        language: "fr",
        category: "MARKETING",
        status: "REJECTED",
        parameterFormat: "POSITIONAL",
        components: [],
        statusReason: "The content does not fit the category chosen: promotional copy belongs in a marketing template.",
      },
      { id: "5", name: "d", language: "fr", category: "MARKETING", status: "REJECTED", parameterFormat: "POSITIONAL", components: [], statusReason: null },
    ]);
    const calls = graph.requests.slice(before);
    expect(calls.map((c) => c.query.get("after"))).toEqual([null, "c1"]);
    expect(calls[0]!.query.get("limit")).toBe("1");
    expect(calls[0]!.query.get("fields")?.split(",")).toContain("rejected_reason");
  });
});

describe("describeMessagingLimit", () => {
  it("spells out tiers", () => {
    expect(describeMessagingLimit("TIER_250")).toBe("250 customers / 24 h");
    expect(describeMessagingLimit("TIER_100K")).toBe("100,000 customers / 24 h");
    expect(describeMessagingLimit("TIER_UNLIMITED")).toBe("Unlimited");
    expect(describeMessagingLimit(null)).toBeNull();
  });
});
