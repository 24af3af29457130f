// Shell-ready curl commands for the docs page. The key comes from `$SENDSTREAM_API_KEY`.
import type { Endpoint } from "./registry";

/** POSIX single quotes, safe for any text. */
export function shellQuote(value: string): string {
  return `'${value.replace(/'/g, `'\\''`)}'`;
}

export interface CurlOptions {
  baseUrl: string;
  /** Path parameter values; shell variables such as `$CAMPAIGN_ID` are kept expandable. */
  path?: Record<string, string>;
  query?: Record<string, string>;
  body?: unknown;
  /** A CSV file sent as the raw body (`--data-binary @file`), when there is no JSON body. */
  csvFile?: string;
  /** Extra headers, e.g. Idempotency-Key. */
  headers?: Record<string, string>;
}

function fillPath(template: string, values: Record<string, string>): string {
  return template.replace(/\{(\w+)\}/g, (_, name: string) => values[name] ?? `{${name}}`);
}

/** The URL argument: double-quoted when it holds a shell variable, single-quoted otherwise. */
function urlArgument(url: string): string {
  return /\$[A-Z_]+/.test(url) ? `"${url.replace(/["\\`]/g, "\\$&")}"` : shellQuote(url);
}

export function curlCommand(method: string, pathTemplate: string, options: CurlOptions & { auth?: boolean }): string {
  const query = new URLSearchParams(options.query ?? {}).toString();
  const url = `${options.baseUrl}${fillPath(pathTemplate, options.path ?? {})}${query ? `?${query}` : ""}`;
  const lines = [`curl${method === "GET" ? "" : ` -X ${method}`} ${urlArgument(url)}`];
  if (options.auth !== false) lines.push(`  -H "x-api-key: $SENDSTREAM_API_KEY"`);
  for (const [name, value] of Object.entries(options.headers ?? {})) lines.push(`  -H ${shellQuote(`${name}: ${value}`)}`);
  if (options.body !== undefined) {
    lines.push(`  -H 'Content-Type: application/json'`);
    // "$NAME" string values stay shell variables: close the single quotes around them.
    const text = JSON.stringify(options.body);
    const body = shellQuote(text.length > 80 ? JSON.stringify(options.body, null, 2) : text).replace(/"\$([A-Z_]+)"/g, `"'"$$$1"'"`);
    lines.push(`  -d ${body}`);
  } else if (options.csvFile !== undefined) {
    lines.push(`  -H 'Content-Type: text/csv'`, `  --data-binary ${shellQuote(`@${options.csvFile}`)}`);
  }
  return lines.join(" \\\n");
}

/** The example request of an endpoint, with the registry's example values. */
export function endpointCurl(endpoint: Endpoint, baseUrl: string): string {
  const path = Object.fromEntries((endpoint.pathParams ?? []).map((p) => [p.name, String(p.example ?? `{${p.name}}`)]));
  return curlCommand(endpoint.method, endpoint.path, {
    baseUrl,
    path: { ...path, ...endpoint.example?.path },
    query: endpoint.example?.query,
    body: endpoint.body?.example,
    csvFile: endpoint.csvBody ? "customers.csv" : undefined,
    auth: endpoint.auth === "apiKey",
  });
}
