import { execFileSync } from "node:child_process";
import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { findPreset } from "./presets";
import { signedTestCommand, testBody } from "./test-command";

const URL = "https://app.example.com/api/campaigns/cmp_test123/trigger";

interface Posted {
  url: string;
  headers: Record<string, string>;
  body: string;
}

/**
 * Runs the command with `curl` replaced by a shell function that prints its arguments (nothing goes
 * over the network), and reads back the URL, the headers and the body the real curl would send.
 */
function run(command: string, shell = "bash"): Posted {
  const script = `curl() { for arg in "$@"; do printf '%s\\0' "$arg"; done; }\n${command}\n`;
  const args = execFileSync(shell, ["-c", script], { encoding: "utf8" }).split("\0").slice(0, -1);
  const headers: Record<string, string> = {};
  let body = "";
  let url = "";
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = () => args[++i] ?? "";
    if (arg === "-H") {
      const [name = "", ...rest] = next().split(": ");
      headers[name.toLowerCase()] = rest.join(": ");
    } else if (arg === "--data-binary") body = next();
    else if (arg === "-X") next();
    else if (arg.startsWith("http")) url = arg;
  }
  return { url, headers, body };
}

const hmac = (key: string | Buffer, data: string) => createHmac("sha256", key).update(data, "utf8");
// Quotes, a dollar, backticks, a backslash, a lone ")" and non-ASCII: everything a shell could mangle.
const awkward = JSON.stringify({ note: `it's "$HOME" \`id\` \\n ) ünïcødé`, phone: "+14155552671" }, null, 2);

describe("signedTestCommand", () => {
  it("Shopify: signs the raw body as base64 HMAC-SHA256 and sends topic and a fresh delivery id", () => {
    const preset = findPreset("shopify-orders-create")!;
    const body = JSON.stringify(preset.sample);
    const secret = "shpss_0123456789abcdef";
    const command = signedTestCommand({ kind: "shopify", url: URL, body, topic: "orders/create", secretPlaceholder: secret });
    const first = run(command);
    expect(first.url).toBe(URL);
    expect(first.body).toBe(body);
    expect(first.headers["x-shopify-hmac-sha256"]).toBe(hmac(secret, body).digest("base64"));
    expect(first.headers["x-shopify-topic"]).toBe("orders/create");
    expect(first.headers["content-type"]).toBe("application/json");
    const second = run(command);
    expect(first.headers["x-shopify-webhook-id"]).toMatch(/^[0-9a-f]{32}$/);
    expect(second.headers["x-shopify-webhook-id"]).not.toBe(first.headers["x-shopify-webhook-id"]);
  });

  it("WooCommerce: the same scheme under its own headers, also in a plain POSIX sh", () => {
    const secret = "wc secret with 'quotes' and $dollar";
    const command = signedTestCommand({ kind: "woocommerce", url: URL, body: awkward, topic: "order.created", secretPlaceholder: secret });
    for (const shell of ["bash", "sh"]) {
      const posted = run(command, shell);
      expect(posted.body).toBe(awkward);
      expect(posted.headers["x-wc-webhook-signature"]).toBe(hmac(secret, awkward).digest("base64"));
      expect(posted.headers["x-wc-webhook-topic"]).toBe("order.created");
      expect(posted.headers["x-wc-webhook-delivery-id"]).toMatch(/^[0-9a-f]{32}$/);
    }
  });

  it("Stripe: t=…,v1=hex HMAC of `t.body`, a fresh event id per run", () => {
    const preset = findPreset("stripe-checkout-session-completed")!;
    const body = JSON.stringify(preset.sample);
    const secret = "whsec_stripe0123456789";
    const before = Math.floor(Date.now() / 1000);
    const posted = run(signedTestCommand({ kind: "stripe", url: URL, body, secretPlaceholder: secret }));
    const match = /^t=(\d+),v1=([0-9a-f]{64})$/.exec(posted.headers["stripe-signature"] ?? "");
    expect(match).not.toBeNull();
    const [, t = "", v1] = match!;
    expect(Number(t)).toBeGreaterThanOrEqual(before);
    expect(Number(t)).toBeLessThanOrEqual(Math.floor(Date.now() / 1000));
    expect(v1).toBe(hmac(secret, `${t}.${posted.body}`).digest("hex"));
    const sent = JSON.parse(posted.body);
    expect(sent.id).toMatch(/^evt_test_[0-9a-f]{24}$/);
    expect({ ...sent, id: "x" }).toEqual({ ...(preset.sample as object), id: "x" });
  });

  it("Standard Webhooks: base64 HMAC of `id.timestamp.body` with the decoded whsec key", () => {
    const key = Buffer.from("a 24-byte secret key!!!!");
    const secret = `whsec_${key.toString("base64")}`;
    const posted = run(signedTestCommand({ kind: "standard_webhooks", url: URL, body: awkward, secretPlaceholder: secret }));
    const id = posted.headers["webhook-id"];
    const timestamp = posted.headers["webhook-timestamp"];
    expect(id).toMatch(/^msg_[0-9a-f]{24}$/);
    expect(timestamp).toMatch(/^\d{10}$/);
    expect(posted.body).toBe(awkward);
    expect(posted.headers["webhook-signature"]).toBe(`v1,${hmac(key, `${id}.${timestamp}.${awkward}`).digest("base64")}`);
  });

  it("API key: today's call with the key header and the body as is", () => {
    const posted = run(signedTestCommand({ kind: "api_key", url: URL, body: awkward }));
    expect(posted.headers["x-api-key"]).toBe("<API_KEY>");
    expect(posted.body).toBe(awkward);
  });

  it("keeps the heredoc closed when a body line equals its delimiter", () => {
    const body = "{\nSENDSTREAM_BODY\n}";
    const posted = run(signedTestCommand({ kind: "shopify", url: URL, body, secretPlaceholder: "s" }));
    expect(posted.body).toBe(body);
    expect(posted.headers["x-shopify-hmac-sha256"]).toBe(hmac("s", body).digest("base64"));
  });

  it("leaves a placeholder for the secret when none is given", () => {
    expect(signedTestCommand({ kind: "shopify", url: URL, body: "{}" })).toContain("SECRET='<SIGNING_SECRET>'");
  });

  it("tests with the sample of the preset for the source's topic, or the campaign's example", () => {
    const fulfilled = testBody("shopify", ["orders/fulfilled"], {});
    expect(fulfilled.topic).toBe("orders/fulfilled");
    expect(JSON.parse(fulfilled.body)).toEqual(findPreset("shopify-orders-fulfilled")!.sample);
    expect(testBody("shopify", [], {}).topic).toBe("orders/create");
    expect(JSON.parse(testBody("stripe", [], {}).body).type).toBe("checkout.session.completed");
    const standard = testBody("standard_webhooks", ["invoice.paid"], { phone: "+14155552671" });
    expect(JSON.parse(standard.body)).toMatchObject({ type: "invoice.paid", phone: "+14155552671" });
    expect(JSON.parse(testBody("api_key", [], { phone: "+14155552671" }).body)).toEqual({ phone: "+14155552671" });
  });
});
