import type { Metadata } from "next";
import { CodeBlock } from "@/components/docs/code-block";
import { EndpointDoc } from "@/components/docs/endpoint";
import { InlineText } from "@/components/docs/inline-text";
import { MethodBadge } from "@/components/docs/method-badge";
import { ObjectsSection, returnedObjects } from "@/components/docs/objects-section";
import { cn } from "@/lib/utils";
import { fieldTable, objectAnchor, objectTitle } from "@/components/docs/schema-table";
import { SourcesSection } from "@/components/docs/sources-section";
import { appUrl } from "@/lib/env";
import { endpointCurl } from "@/lib/openapi/curl";
import { buildOpenApiDocument, problemExample, queryParameters } from "@/lib/openapi/document";
import { ERROR_CATALOG } from "@/lib/http/error-catalog";
import { quickStartSteps } from "@/lib/openapi/quickstart";
import { endpointAnchor, ENDPOINTS, TAGS } from "@/lib/openapi/registry";
import { requestOrigin } from "@/lib/http/request-origin";

export const metadata: Metadata = {
  title: "API reference",
  description: "The Sendstream REST API: trigger WhatsApp template messages, manage campaigns, templates, contacts and messages.",
};

const AUDIENCE_LABELS = { web_app: "web app only", platform: "WhatsApp webhook and cron only" } as const;

const CONVENTIONS = [
  [
    "Authentication",
    "An API key in `x-api-key` or `Authorization: Bearer`. The web app calls the same endpoints with its session; a key, when sent, always decides.",
  ],
  ["Bodies", "JSON in camelCase. Unknown fields are refused with 422."],
  ["Ids", "Opaque strings with a type prefix (`cmp_…`, `msg_…`)."],
  ["Timestamps", "ISO 8601 in UTC, e.g. `2026-11-21T14:03:07.512Z`."],
  ["Lists", "`{ data, nextCursor }`; pass `cursor` to read the next page."],
  ["Errors", "RFC 9457 problem details (`application/problem+json`)."],
] as const;

export default async function ApiDocsPage() {
  const baseUrl = appUrl(await requestOrigin());
  const document = buildOpenApiDocument({ baseUrl });
  const components = document.components.schemas;
  const steps = quickStartSteps(baseUrl);
  const groups = TAGS.map((tag) => ({ ...tag, endpoints: ENDPOINTS.filter((e) => e.tag === tag.name) })).filter((g) => g.endpoints.length > 0);
  const tagAnchor = (name: string) => `tag-${name.toLowerCase()}`;
  const operationOf = (endpoint: (typeof ENDPOINTS)[number]) => document.paths[endpoint.path]![endpoint.method.toLowerCase()]!;
  const objects = returnedObjects(groups.flatMap((group) => group.endpoints.map(operationOf)));

  return (
    <div className="mx-auto grid max-w-[90rem] lg:grid-cols-[16rem_minmax(0,1fr)]">
      <aside className="hidden border-r lg:block">
        <nav aria-label="API reference" className="sticky top-14 max-h-[calc(100dvh-3.5rem)] overflow-y-auto px-4 py-8 text-sm">
          <p className="px-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase">Guides</p>
          <ul className="mt-2 space-y-0.5">
            {[
              ["#introduction", "Introduction"],
              ["#authentication", "Authentication"],
              ["#quick-start", "Quick start"],
              ["#sources", "Sources"],
              ["#errors", "Errors"],
            ].map(([href, label]) => (
              <li key={href}>
                <a href={href} className="block rounded-md px-2 py-1.5 text-muted-foreground transition hover:bg-accent hover:text-accent-foreground">
                  {label}
                </a>
              </li>
            ))}
          </ul>
          {groups.map((group) => (
            <div key={group.name} className="mt-6">
              <a href={`#${tagAnchor(group.name)}`} className="px-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase hover:text-foreground">
                {group.name}
              </a>
              <ul className="mt-2 space-y-0.5">
                {group.endpoints.map((endpoint) => (
                  <li key={endpoint.operationId}>
                    <a
                      href={`#${endpointAnchor(endpoint)}`}
                      className="flex items-center gap-2 rounded-md px-2 py-1.5 text-muted-foreground transition hover:bg-accent hover:text-accent-foreground"
                    >
                      <MethodBadge method={endpoint.method} className="w-12 text-[10px]" />
                      <span className="truncate">{endpoint.summary}</span>
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          ))}
          {objects.length > 0 ? (
            <div className="mt-6">
              <a href="#objects" className="px-2 text-xs font-semibold tracking-wide text-muted-foreground uppercase hover:text-foreground">
                Objects
              </a>
              <ul className="mt-2 space-y-0.5">
                {objects.map((name) => (
                  <li key={name}>
                    <a href={`#${objectAnchor(name)}`} className="block truncate rounded-md px-2 py-1.5 text-muted-foreground transition hover:bg-accent hover:text-accent-foreground">
                      {objectTitle(name)}
                    </a>
                  </li>
                ))}
              </ul>
            </div>
          ) : null}
        </nav>
      </aside>

      <main className="min-w-0 px-4 pb-24 sm:px-8 lg:px-12">
        <section id="introduction" aria-labelledby="introduction-title" className="scroll-mt-20 py-12">
          <p className="text-sm font-medium text-primary">REST API · v1</p>
          <h1 id="introduction-title" className="mt-2 text-4xl font-semibold tracking-tight">
            Sendstream API
          </h1>
          <p className="mt-4 max-w-3xl text-lg leading-relaxed text-muted-foreground">
            Trigger WhatsApp template messages from your shop, CRM or automation tool, and manage campaigns, templates, contacts and messages. Everything here is
            also described in the{" "}
            <a href="/api/v1/openapi.json" className="font-medium text-primary underline underline-offset-4">
              OpenAPI 3.1 document
            </a>
            , ready for Postman, Insomnia or a client generator.
          </p>
          <div className="mt-8 max-w-3xl rounded-xl border bg-muted/40 p-4">
            <p className="text-xs font-semibold tracking-wide text-muted-foreground uppercase">Base URL</p>
            <code className="mt-1 block font-mono text-[15px] break-all" data-testid="base-url">
              {baseUrl}
            </code>
          </div>
          <dl className="mt-8 grid max-w-4xl gap-x-8 gap-y-4 sm:grid-cols-2">
            {CONVENTIONS.map(([term, text]) => (
              <div key={term} className="border-l-2 border-primary/30 pl-3">
                <dt className="text-sm font-semibold">{term}</dt>
                <dd className="mt-0.5 text-sm text-muted-foreground">
                  <InlineText text={text} />
                </dd>
              </div>
            ))}
          </dl>
        </section>

        <section id="authentication" aria-labelledby="authentication-title" className="scroll-mt-20 border-t py-12">
          <div className="grid gap-8 xl:grid-cols-[minmax(0,1fr)_minmax(0,28rem)]">
            <div className="space-y-4 text-[15px] leading-relaxed text-muted-foreground">
              <h2 id="authentication-title" className="text-2xl font-semibold tracking-tight text-foreground">
                Authentication
              </h2>
              <p>
                <InlineText text="Create keys in the app under Settings → API Keys. A key starts with `ss_` and is shown once; store it as a secret. Send it on every request in either header:" />
              </p>
              <ul className="list-disc space-y-1 pl-5">
                <li>
                  <InlineText text="`x-api-key: ss_…`" />
                </li>
                <li>
                  <InlineText text="`Authorization: Bearer ss_…`" />
                </li>
              </ul>
              <p>
                <InlineText text={'A missing, malformed, unknown or deleted key gets `401` with `WWW-Authenticate: Bearer realm="sendstream"`; both headers with different keys get `400`. Keys are never accepted in the query string. A deleted key stops working at once.'} />
              </p>
            </div>
            <CodeBlock label="curl: Authenticate" title="Request" code={endpointCurl(ENDPOINTS.find((e) => e.operationId === "getMe")!, baseUrl)} />
          </div>
        </section>

        <section id="quick-start" aria-labelledby="quick-start-title" className="scroll-mt-20 border-t py-12">
          <h2 id="quick-start-title" className="text-2xl font-semibold tracking-tight">
            Quick start
          </h2>
          <p className="mt-2 max-w-3xl text-[15px] text-muted-foreground">
            From a new key to a delivered message in five steps. Paste the commands into a terminal in order; each uses the shell variables set before it.
          </p>
          <ol className="mt-8 space-y-10">
            {steps.map((step, index) => (
              <li key={step.id} id={step.id} className="grid scroll-mt-20 gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,28rem)]">
                <div className="flex gap-4">
                  <span className="flex size-7 shrink-0 items-center justify-center rounded-full bg-primary text-sm font-semibold text-primary-foreground" aria-hidden>
                    {index + 1}
                  </span>
                  <div className="space-y-2">
                    <h3 className="font-semibold">{step.title}</h3>
                    <p className="text-[15px] leading-relaxed text-muted-foreground">
                      <InlineText text={step.text} />
                    </p>
                    {step.then ? (
                      <p className="text-sm text-muted-foreground">
                        <InlineText text={step.then} />
                      </p>
                    ) : null}
                  </div>
                </div>
                <div className="min-w-0 space-y-3">
                  {step.commands.map((command) => (
                    <CodeBlock key={command.label} label={`Quick start: ${command.label}`} title={command.label} code={command.code} />
                  ))}
                </div>
              </li>
            ))}
          </ol>
        </section>

        <SourcesSection baseUrl={baseUrl} />

        {groups.map((group) => (
          <section key={group.name} id={tagAnchor(group.name)} aria-labelledby={`${tagAnchor(group.name)}-title`} className="scroll-mt-20 border-t pt-12">
            <h2 id={`${tagAnchor(group.name)}-title`} className="text-2xl font-semibold tracking-tight">
              {group.name}
            </h2>
            <p className="mt-2 text-[15px] text-muted-foreground">{group.description}</p>
            {group.endpoints.map((endpoint) => (
              <EndpointDoc
                key={endpoint.operationId}
                endpoint={endpoint}
                curl={endpointCurl(endpoint, baseUrl)}
                queryParameters={queryParameters(endpoint)}
                operation={operationOf(endpoint)}
                components={components}
              />
            ))}
          </section>
        ))}

        <ObjectsSection names={objects} components={components} />

        <section id="errors" aria-labelledby="errors-title" className="scroll-mt-20 border-t py-12">
          <div className="grid gap-8 xl:grid-cols-[minmax(0,1fr)_minmax(0,28rem)]">
            <div className="space-y-3 text-[15px] leading-relaxed text-muted-foreground">
              <h2 id="errors-title" className="text-2xl font-semibold tracking-tight text-foreground">
                Errors
              </h2>
              <p>
                <InlineText text="Every error is an RFC 9457 problem (`application/problem+json`) with `type`, `title`, `status` and `detail`. The `type` links to the code's entry below. Validation errors add `errors[]`, one entry per problem with its `path`, `code` and `message`; quote `requestId` when you contact support." />
              </p>
            </div>
            <CodeBlock label="Example problem" title="Response · 422" code={JSON.stringify(problemExample("validation_failed"), null, 2)} />
          </div>
          <div tabIndex={0} role="region" aria-label="Error codes" className="mt-8 overflow-x-auto rounded-lg border focus-visible:ring-[3px] focus-visible:ring-ring focus-visible:outline-none">
            <table role="table" className={fieldTable.table}>
              <caption className="sr-only">Error codes</caption>
              <thead role="rowgroup" className={fieldTable.head}>
                <tr role="row">
                  <th role="columnheader" scope="col" className="px-3 py-2 font-medium">Status</th>
                  <th role="columnheader" scope="col" className="px-3 py-2 font-medium">Code</th>
                  <th role="columnheader" scope="col" className="px-3 py-2 font-medium">Meaning</th>
                </tr>
              </thead>
              <tbody role="rowgroup" className="divide-y">
                {ERROR_CATALOG.map((error) => (
                  <tr role="row" key={error.code} id={`error-${error.code}`} className={`${fieldTable.row} scroll-mt-20 target:bg-accent max-sm:grid-cols-[auto_minmax(0,1fr)]`}>
                    <td role="cell" className={cn(fieldTable.cell, "py-2.5 font-mono text-[13px] font-semibold")}>{error.status}</td>
                    <td role="cell" className={cn(fieldTable.cell, "py-2.5 font-mono text-[13px] whitespace-nowrap")}>
                      <a href={`#error-${error.code}`} className="hover:text-primary">
                        {error.code}
                      </a>
                    </td>
                    <td role="cell" className={cn(fieldTable.wide, "py-2.5 text-[13px] text-muted-foreground")}>
                      <span className="font-medium text-foreground">{error.title}.</span> <InlineText text={error.description} />
                      {"audience" in error && error.audience ? <span className="ml-1 text-xs text-muted-foreground">({AUDIENCE_LABELS[error.audience]})</span> : null}
                    </td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        </section>
      </main>
    </div>
  );
}
