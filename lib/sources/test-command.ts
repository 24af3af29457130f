// A copyable POSIX shell command that signs a body the way a shop does and posts it with curl, so
// a source can be tried before the shop is connected. Needs only sh, openssl, base64 and curl.
import type { SourceKind } from "./kinds";
import { SOURCE_PRESETS } from "./presets";

export const SECRET_PLACEHOLDER = "<SIGNING_SECRET>";
const FRESH_ID_TOKEN = "SENDSTREAM_FRESH_ID";

const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;

/** A delimiter no line of the body equals, so the quoted heredoc always ends where it should. */
function heredocDelimiter(body: string): string {
  const lines = new Set(body.split("\n"));
  let delimiter = "SENDSTREAM_BODY";
  while (lines.has(delimiter)) delimiter += "_";
  return delimiter;
}

/**
 * Stripe's idempotency key is the event's `id` in the body: the command gives each run a fresh one
 * (replayed runs would otherwise get the first answer again and send nothing).
 */
function withFreshEventId(body: string): string | null {
  try {
    const parsed: unknown = JSON.parse(body);
    if (!parsed || typeof parsed !== "object" || Array.isArray(parsed) || typeof (parsed as { id?: unknown }).id !== "string") return null;
    return JSON.stringify({ ...parsed, id: `evt_test_${FRESH_ID_TOKEN}` });
  } catch {
    return null;
  }
}

function bodyLines(body: string): string[] {
  const delimiter = heredocDelimiter(body);
  return [`BODY=$(cat <<'${delimiter}'`, body, delimiter, ")"];
}

export function signedTestCommand(input: { kind: SourceKind; url: string; body: string; topic?: string; secretPlaceholder?: string }): string {
  const { kind, url } = input;
  const secret = `SECRET=${quote(input.secretPlaceholder ?? SECRET_PLACEHOLDER)}`;
  const post = (headers: string[]) =>
    [`curl -sS -X POST ${quote(url)}`, `  -H 'Content-Type: application/json'`, ...headers.map((header) => `  -H ${header}`), `  --data-binary "$BODY"`].join(
      " \\\n",
    );

  switch (kind) {
    case "api_key":
      return [`curl -sS -X POST ${quote(url)}`, `  -H 'Content-Type: application/json'`, `  -H 'x-api-key: <API_KEY>'`, `  --data-binary ${quote(input.body)}`].join(
        " \\\n",
      );
    case "shopify":
    case "woocommerce": {
      const shopify = kind === "shopify";
      const topic = input.topic ?? (shopify ? "orders/create" : "order.created");
      return [
        secret,
        ...bodyLines(input.body),
        `SIGNATURE=$(printf '%s' "$BODY" | openssl dgst -sha256 -hmac "$SECRET" -binary | base64)`,
        `DELIVERY_ID=$(openssl rand -hex 16)`,
        post(
          shopify
            ? [`"X-Shopify-Hmac-Sha256: $SIGNATURE"`, quote(`X-Shopify-Topic: ${topic}`), `"X-Shopify-Webhook-Id: $DELIVERY_ID"`]
            : [`"X-WC-Webhook-Signature: $SIGNATURE"`, quote(`X-WC-Webhook-Topic: ${topic}`), `"X-WC-Webhook-Delivery-ID: $DELIVERY_ID"`],
        ),
      ].join("\n");
    }
    case "stripe": {
      const fresh = withFreshEventId(input.body);
      return [
        secret,
        ...bodyLines(fresh ?? input.body),
        ...(fresh ? [`BODY=$(printf '%s' "$BODY" | sed "s/${FRESH_ID_TOKEN}/$(openssl rand -hex 12)/")`] : []),
        `t=$(date +%s)`,
        `SIGNATURE=$(printf '%s.%s' "$t" "$BODY" | openssl dgst -sha256 -hmac "$SECRET" | sed 's/^.*= //')`,
        post([`"Stripe-Signature: t=$t,v1=$SIGNATURE"`]),
      ].join("\n");
    }
    case "standard_webhooks":
      return [
        secret,
        ...bodyLines(input.body),
        `MSG_ID="msg_$(openssl rand -hex 12)"`,
        `TIMESTAMP=$(date +%s)`,
        // The key is the base64 part of whsec_…, decoded; openssl takes it as hex.
        `KEY_HEX=$(printf '%s' "\${SECRET#whsec_}" | openssl base64 -d -A | od -An -v -tx1 | tr -d ' \\n')`,
        `SIGNATURE=$(printf '%s.%s.%s' "$MSG_ID" "$TIMESTAMP" "$BODY" | openssl dgst -sha256 -mac HMAC -macopt "hexkey:$KEY_HEX" -binary | base64)`,
        post([`"webhook-id: $MSG_ID"`, `"webhook-timestamp: $TIMESTAMP"`, `"webhook-signature: v1,$SIGNATURE"`]),
      ].join("\n");
  }
}

/**
 * The body a test of a source sends: the sample of the preset for that shop and topic, or for
 * Standard Webhooks and API keys the campaign's own example (with a `type` for Standard Webhooks).
 */
export function testBody(kind: SourceKind, topics: string[], example: unknown): { body: string; topic?: string } {
  const presets = SOURCE_PRESETS.filter((preset) => preset.kind === kind);
  const preset = presets.find((p) => p.topics.some((topic) => topics.includes(topic))) ?? presets[0];
  if (preset) return { body: JSON.stringify(preset.sample), topic: topics[0] ?? preset.topicHeaderValue };
  if (kind === "standard_webhooks") {
    const type = topics[0] ?? "order.created";
    const data = example && typeof example === "object" && !Array.isArray(example) ? example : {};
    return { body: JSON.stringify({ type, timestamp: "2026-11-20T10:42:07Z", ...data }), topic: type };
  }
  return { body: JSON.stringify(example) };
}
