import { describe, expect, it } from "vitest";
import { bulkLaunchChecks } from "@/lib/bulk/checks";
import { promotionalCopyInNonMarketing, promotionalWord } from "./promotional";
import { SANDBOX_TEMPLATES } from "./sandbox";

describe("promotional copy", () => {
  it("finds the listed words as whole words, any case", () => {
    expect(promotionalWord("Our Winter SALE starts today")).toBe("sale");
    expect(promotionalWord("Get 20% off everything")).toBe("% off");
    expect(promotionalWord("Great deals inside")).toBe("deal");
    expect(promotionalWord("Your order has shipped to Salem")).toBeNull();
    expect(promotionalWord("We could not process the wholesale order")).toBeNull();
  });

  it("only non-marketing templates are flagged; the demo utility templates are plain", () => {
    const components = [{ type: "BODY", text: "Hi {{1}}, our winter sale starts today." }];
    expect(promotionalCopyInNonMarketing({ category: "UTILITY", components })).toBe("sale");
    expect(promotionalCopyInNonMarketing({ category: "MARKETING", components })).toBeNull();
    for (const t of SANDBOX_TEMPLATES.filter((t) => t.category !== "MARKETING")) expect(promotionalCopyInNonMarketing(t), t.name).toBeNull();
  });

  it("the bulk launch check warns, without blocking", () => {
    const input = {
      messageConfig: { variables: [{ key: "body.1", attribute: "name" }] },
      template: { name: "order_confirmation", status: "APPROVED", category: "UTILITY", parameterFormat: "POSITIONAL" as const, components: [{ type: "BODY", text: "Hi {{1}}, Winter sale: 20% off today." }], availableForSender: true },
      sender: { provider: "sandbox" as const, configured: true, throughputPerSecond: 80 },
      sendRatePerSecond: null,
      audienceCount: 10,
      availableUnderTier: null,
      tierKnown: true,
      allowTierWait: false,
    };
    const checks = bulkLaunchChecks(input);
    expect(checks.errors.map((e) => e.code)).not.toContain("promotional_copy");
    expect(checks.warnings).toEqual([expect.objectContaining({ path: "message.template", code: "promotional_copy", message: expect.stringContaining("looks promotional") })]);
    expect(bulkLaunchChecks({ ...input, template: { ...input.template, category: "MARKETING" } }).warnings.map((w) => w.code)).toEqual([]);
  });
});
