import type { Endpoint, Parameter } from "@/lib/openapi/registry";
import { endpointAnchor, endpointErrors } from "@/lib/openapi/registry";
import { errorEntry } from "@/lib/http/error-catalog";
import { CodeBlock } from "./code-block";
import { InlineText } from "./inline-text";
import { MethodBadge } from "./method-badge";
import { fieldTable, objectAnchor, objectTitle, referencedObject, SchemaTable } from "./schema-table";

type JsonSchema = Record<string, unknown>;

function schemaType(schema: JsonSchema): string {
  if (Array.isArray(schema.enum)) return schema.enum.map(String).join(" | ");
  return String(schema.type ?? "string");
}

function ParameterTable({ title, parameters }: { title: string; parameters: (Parameter & { where: string })[] }) {
  if (parameters.length === 0) return null;
  return (
    <div className="space-y-2">
      <h4 className="text-sm font-semibold">{title}</h4>
      <div tabIndex={0} role="region" aria-label={title} className="overflow-x-auto rounded-lg border focus-visible:ring-[3px] focus-visible:ring-ring focus-visible:outline-none">
        <table role="table" className={fieldTable.table}>
          <caption className="sr-only">{title}</caption>
          <thead role="rowgroup" className={fieldTable.head}>
            <tr role="row">
              <th role="columnheader" scope="col" className="px-3 py-2 font-medium">Name</th>
              <th role="columnheader" scope="col" className="px-3 py-2 font-medium">In</th>
              <th role="columnheader" scope="col" className="px-3 py-2 font-medium">Type</th>
              <th role="columnheader" scope="col" className="px-3 py-2 font-medium">Description</th>
            </tr>
          </thead>
          <tbody role="rowgroup" className="divide-y">
            {parameters.map((p) => (
              <tr role="row" key={`${p.where}-${p.name}`} className={`${fieldTable.row} max-sm:grid-cols-[auto_auto_minmax(0,1fr)]`}>
                <td role="cell" className={`${fieldTable.cell} font-mono text-[12.5px] whitespace-nowrap`}>
                  {p.name}
                  {p.where === "path" || p.required ? <span className="ml-1.5 font-sans text-[11px] font-medium text-destructive">required</span> : null}
                </td>
                <td role="cell" className={`${fieldTable.cell} text-[12.5px] text-muted-foreground`}>{p.where}</td>
                <td role="cell" className={`${fieldTable.cell} font-mono text-[12px] text-muted-foreground max-sm:[overflow-wrap:anywhere]`}>{schemaType(p.schema)}</td>
                <td role="cell" className={`${fieldTable.wide} text-[13px] text-muted-foreground max-sm:[overflow-wrap:anywhere]`}>
                  <InlineText text={p.description} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </div>
  );
}

export interface EndpointDocProps {
  endpoint: Endpoint;
  curl: string;
  queryParameters: Parameter[];
  /** The operation from the OpenAPI document (request and response schemas as JSON Schema). */
  operation: JsonSchema;
  components: Record<string, JsonSchema>;
}

export function EndpointDoc({ endpoint, curl, queryParameters, operation, components }: EndpointDocProps) {
  const anchor = endpointAnchor(endpoint);
  const parameters = [
    ...(endpoint.pathParams ?? []).map((p) => ({ ...p, where: "path" })),
    ...queryParameters.map((p) => ({ ...p, where: "query" })),
    ...(endpoint.headers ?? []).map((p) => ({ ...p, where: "header" })),
  ];
  const requestSchema = (operation.requestBody as { content?: Record<string, { schema: JsonSchema }> } | undefined)?.content?.["application/json"]?.schema;
  const responses = operation.responses as Record<string, { content?: Record<string, { schema?: JsonSchema }> }>;
  const primary = endpoint.responses[0]!;
  const errors = endpointErrors(endpoint)
    .map(errorEntry)
    .sort((a, b) => a.status - b.status);

  return (
    <section id={anchor} aria-labelledby={`${anchor}-title`} className="scroll-mt-20 border-t py-10 first:border-t-0">
      <div className="grid gap-8 xl:grid-cols-[minmax(0,1fr)_minmax(0,28rem)]">
        <div className="min-w-0 space-y-6">
          <div className="space-y-3">
            <h3 id={`${anchor}-title`} className="text-xl font-semibold tracking-tight">
              {endpoint.summary}
            </h3>
            <div className="flex flex-wrap items-center gap-2">
              <MethodBadge method={endpoint.method} />
              <code className="font-mono text-sm break-all">{endpoint.path}</code>
              {endpoint.auth === "none" ? (
                <span className="rounded-full bg-muted px-2 py-0.5 text-[11px] font-medium text-muted-foreground">No key needed</span>
              ) : null}
            </div>
            <p className="text-[15px] leading-relaxed text-muted-foreground">
              <InlineText text={endpoint.description} />
            </p>
          </div>

          <ParameterTable title="Parameters" parameters={parameters} />

          {requestSchema && endpoint.body ? (
            <div className="space-y-2">
              <h4 className="text-sm font-semibold">
                Request body <span className="font-normal text-muted-foreground">application/json{endpoint.body.required ? "" : " · optional"}</span>
              </h4>
              {endpoint.body.description ? (
                <p className="text-sm text-muted-foreground">
                  <InlineText text={endpoint.body.description} />
                </p>
              ) : null}
              <SchemaTable schema={requestSchema} components={components} caption={`Request body of ${endpoint.summary}`} />
            </div>
          ) : null}

          {endpoint.csvBody ? (
            <div className="space-y-2">
              <h4 className="text-sm font-semibold">
                Request body <span className="font-normal text-muted-foreground">text/csv{endpoint.csvBody.required ? "" : " · optional"}</span>
              </h4>
              <p className="text-sm text-muted-foreground">
                <InlineText text={endpoint.csvBody.description} />
              </p>
            </div>
          ) : null}

          <div className="space-y-3">
            <h4 className="text-sm font-semibold">Responses</h4>
            {endpoint.responses.map((response) => {
              const schema = responses[String(response.status)]?.content?.["application/json"]?.schema;
              const status = (
                <span className="rounded bg-[oklch(0.95_0.05_155)] px-1.5 py-0.5 font-mono text-[12px] font-semibold text-[oklch(0.4_0.12_155)]">{response.status}</span>
              );
              const description = (
                <span className="text-muted-foreground">
                  <InlineText text={response.description} />
                </span>
              );
              // A named object (a campaign returned by a dozen endpoints) is described once, in Objects.
              const object = referencedObject(schema);
              if (object) {
                return (
                  <div key={response.status} className="flex flex-wrap items-center gap-2 rounded-lg border px-3 py-2 text-sm">
                    {status}
                    {description}
                    <a href={`#${objectAnchor(object)}`} className="ml-auto text-xs font-medium text-primary underline-offset-4 hover:underline">
                      Returns the {objectTitle(object)} object
                    </a>
                  </div>
                );
              }
              return (
                <details key={response.status} className="group rounded-lg border">
                  <summary className="flex cursor-pointer list-none items-center gap-2 px-3 py-2 text-sm">
                    {status}
                    {description}
                    {schema ? <span className="ml-auto text-xs text-muted-foreground group-open:hidden">Show fields</span> : null}
                  </summary>
                  {schema ? (
                    <div className="border-t p-3">
                      <SchemaTable schema={schema} components={components} caption={`${response.status} response of ${endpoint.summary}`} />
                    </div>
                  ) : null}
                </details>
              );
            })}
          </div>

          <div className="space-y-2">
            <h4 className="text-sm font-semibold">Errors</h4>
            <ul className="flex flex-wrap gap-1.5">
              {errors.map((error) => (
                <li key={error.code}>
                  <a
                    href={`#error-${error.code}`}
                    className="inline-flex items-center gap-1.5 rounded-md border bg-background px-2 py-0.5 font-mono text-[12px] text-muted-foreground transition hover:border-primary/40 hover:text-foreground"
                  >
                    <span className="font-semibold text-foreground">{error.status}</span>
                    {error.code}
                  </a>
                </li>
              ))}
            </ul>
          </div>
        </div>

        <div className="min-w-0 space-y-4">
          <CodeBlock label={`curl: ${endpoint.summary}`} title="Request" code={curl} />
          {primary.example !== undefined || primary.textExample !== undefined ? (
            <CodeBlock
              label={`Response: ${endpoint.summary}`}
              title={`Response · ${primary.status}`}
              code={primary.textExample ?? JSON.stringify(primary.example, null, 2)}
            />
          ) : null}
        </div>
      </div>
    </section>
  );
}
