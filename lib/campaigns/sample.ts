// Example trigger payloads generated from a trigger mapping: for the builder preview, the deploy
// result's curl example and the API docs.
import { lastKey, readFieldPath, writeFieldPath } from "./field-path";
import { PHONE_ATTRIBUTE, type FieldType, type TriggerConfigInput } from "./schemas";

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

/** An example trigger body: one JSON object, or (a captured batch) an array of them. */
export type TriggerPayload = Record<string, unknown> | unknown[];

type SampleConfig = Pick<TriggerConfigInput, "phoneField" | "phoneFallbacks" | "fields" | "example">;

/**
 * The request body the trigger endpoint expects for this mapping: the captured example when the
 * trigger node has one, else built from the paths (`customer.phone` → `{customer: {phone: …}}`)
 * and filled with example values.
 */
export function samplePayload(config: SampleConfig): TriggerPayload {
  if (config.example != null) return config.example;
  const payload: Record<string, unknown> = {};
  writeFieldPath(payload, config.phoneField, SAMPLE_PHONE);
  for (const row of config.fields) {
    if (readFieldPath(payload, row.field) === undefined) writeFieldPath(payload, row.field, sampleValue(lastKey(row.field) ?? row.field, row.type));
  }
  return payload;
}

/** The contact attributes a payload would produce (phone → phoneNumber, each field → its attribute), fallbacks read as the endpoint reads them. */
export function payloadAttributes(config: SampleConfig, payload: TriggerPayload): Record<string, unknown> {
  const item = Array.isArray(payload) ? payload[0] : payload;
  const first = (paths: string[]) => {
    let empty: unknown;
    for (const path of paths) {
      const value = readFieldPath(item, path);
      if (value === undefined || value === null) continue;
      if (value !== "") return value;
      empty ??= value;
    }
    return empty;
  };
  const attributes: Record<string, unknown> = { [PHONE_ATTRIBUTE]: first([config.phoneField, ...(config.phoneFallbacks ?? [])]) };
  for (const row of config.fields) {
    const value = first([row.field, ...(row.fallbacks ?? [])]);
    if (value !== undefined) attributes[row.attribute] = value;
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
