// Example trigger payloads generated from a trigger mapping: for the builder preview, the deploy
// result's curl example and the API docs.
import { PHONE_ATTRIBUTE, type FieldType, type TriggerConfig } from "./schemas";

export const SAMPLE_PHONE = "+14155552671";

/** A plausible example value for a request field, guessed from its name and type. */
export function sampleValue(field: string, type: FieldType): string | number | boolean {
  const name = field.toLowerCase();
  switch (type) {
    case "number":
      if (/amount|total|price|sum/.test(name)) return 49.9;
      return 3;
    case "boolean":
      return true;
    case "email":
      return "maria@example.com";
    case "date":
      return "2026-03-14";
    case "string":
      if (/^(first_?name|firstname|name)$/.test(name) || name.endsWith("first_name")) return "Maria";
      if (/last_?name|surname/.test(name)) return "Garcia";
      if (/name/.test(name)) return "Maria Garcia";
      if (/order/.test(name)) return "A-10482";
      if (/track/.test(name)) return "1Z999AA1";
      if (/code|coupon|voucher/.test(name)) return "SPRING20";
      if (/city/.test(name)) return "Lisbon";
      if (/time/.test(name)) return "10:30";
      if (/date|day/.test(name)) return "March 14";
      if (/url|link/.test(name)) return "https://example.com";
      return `example ${field}`;
  }
}

/** The request body the trigger endpoint expects for this mapping, filled with example values. */
export function samplePayload(config: TriggerConfig): Record<string, string | number | boolean> {
  const payload: Record<string, string | number | boolean> = { [config.phoneField]: SAMPLE_PHONE };
  for (const row of config.fields) payload[row.field] = sampleValue(row.field, row.type);
  return payload;
}

/** The contact attributes a payload would produce (phone → phoneNumber, each field → its attribute). */
export function payloadAttributes(config: TriggerConfig, payload: Record<string, unknown>): Record<string, unknown> {
  const attributes: Record<string, unknown> = { [PHONE_ATTRIBUTE]: payload[config.phoneField] };
  for (const row of config.fields) {
    if (payload[row.field] !== undefined) attributes[row.attribute] = payload[row.field];
  }
  return attributes;
}

/** A shell-ready curl command (POSIX single quotes) for a trigger URL and body. */
export function curlExample(url: string, body: unknown): string {
  const quote = (value: string) => `'${value.replace(/'/g, `'\\''`)}'`;
  return [
    `curl -X POST ${quote(url)}`,
    `  -H 'Content-Type: application/json'`,
    `  -H 'x-api-key: <API_KEY>'`,
    `  -d ${quote(JSON.stringify(body))}`,
  ].join(" \\\n");
}
