import { execFileSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { sourceGuides } from "./guide";
import { SOURCE_KINDS } from "./kinds";
import { SECRET_PLACEHOLDER } from "./test-command";

const URL = "https://app.example.com/api/campaigns/<CAMPAIGN_ID>/trigger";

/** The arguments curl would get (curl replaced by a function that prints them). */
function curlArgs(command: string): string[] {
  const script = `curl() { for arg in "$@"; do printf '%s\\0' "$arg"; done; }\n${command}\n`;
  return execFileSync("bash", ["-c", script], { encoding: "utf8" }).split("\0").slice(0, -1);
}

describe("source guides for the API docs", () => {
  const guides = sourceGuides(URL);

  it("has one guide per source kind", () => {
    expect(guides.map((guide) => guide.kind)).toEqual([...SOURCE_KINDS]);
  });

  it.each(guides.map((guide) => [guide.kind, guide] as const))("%s: with SECRET set, its command posts a signed call to the trigger URL", (_, guide) => {
    expect(guide.command.includes(`SECRET='${SECRET_PLACEHOLDER}'`)).toBe(guide.kind !== "api_key");
    const args = curlArgs(guide.command.replace(SECRET_PLACEHOLDER, `whsec_${Buffer.from("a secret of some length").toString("base64")}`));
    expect(args).toContain(URL);
    expect(args).toContain("--data-binary");
    const signature = args.find((arg) => /^(x-shopify-hmac-sha256|x-wc-webhook-signature|stripe-signature|webhook-signature|x-api-key):/i.test(arg));
    if (guide.kind === "api_key") expect(signature).toBe("x-api-key: <API_KEY>");
    else expect(signature).toMatch(/: (v1,|t=\d+,v1=)?[A-Za-z0-9+/=]{40,}$/);
    expect(guide.checks.length).toBeGreaterThan(0);
  });

  it("signs Shopify's sample with the secret put in SECRET (the placeholder until replaced)", () => {
    const args = curlArgs(sourceGuides(URL).find((guide) => guide.kind === "shopify")!.command);
    const body = args[args.indexOf("--data-binary") + 1]!;
    expect(JSON.parse(body)).toMatchObject({ name: "#1001" });
    expect(args).toContain(`X-Shopify-Hmac-Sha256: ${createHmac("sha256", SECRET_PLACEHOLDER).update(body).digest("base64")}`);
  });
});
