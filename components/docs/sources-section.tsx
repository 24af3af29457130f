import { sourceGuides } from "@/lib/sources/guide";
import { CodeBlock } from "./code-block";
import { InlineText } from "./inline-text";

/** How each source proves a call, and a command that signs a sample body the same way. */
export function SourcesSection({ baseUrl }: { baseUrl: string }) {
  const triggerUrl = `${baseUrl}/api/campaigns/<CAMPAIGN_ID>/trigger`;
  return (
    <section id="sources" aria-labelledby="sources-title" className="scroll-mt-20 border-t py-12">
      <h2 id="sources-title" className="text-2xl font-semibold tracking-tight">
        Sources
      </h2>
      <div className="mt-2 max-w-3xl space-y-2 text-[15px] leading-relaxed text-muted-foreground">
        <p>
          <InlineText text="A trigger campaign is called with an API key, or by a shop that signs each call: choose the source in the campaign builder (Source card). Either way the URL is the same, `POST /api/campaigns/{id}/trigger`; a signed source's URL carries no key." />
        </p>
        <p>
          <InlineText text="A missing or wrong signature gets `401` `invalid_signature`. A call whose topic the campaign does not take gets `202` with `status: ignored` and sends nothing. Both show on the campaign's Requests tab." />
        </p>
      </div>
      <div className="mt-8 space-y-10">
        {sourceGuides(triggerUrl).map((guide) => (
          <article key={guide.kind} id={`source-${guide.kind}`} aria-labelledby={`source-${guide.kind}-title`} className="grid scroll-mt-20 gap-6 xl:grid-cols-[minmax(0,1fr)_minmax(0,28rem)]">
            <div className="space-y-3">
              <h3 id={`source-${guide.kind}-title`} className="font-semibold">
                {guide.title}
              </h3>
              <dl className="grid gap-2 text-sm">
                <div>
                  <dt className="font-medium">Checked</dt>
                  {guide.checks.map((check) => (
                    <dd key={check} className="text-muted-foreground">
                      <InlineText text={check} />
                    </dd>
                  ))}
                </div>
                {(
                  [
                    ["Idempotency key", guide.idempotency],
                    ["Tolerance", guide.tolerance],
                    ["Topic", guide.topic],
                  ] as const
                ).map(([term, text]) => (
                  <div key={term}>
                    <dt className="font-medium">{term}</dt>
                    <dd className="text-muted-foreground">
                      <InlineText text={text} />
                    </dd>
                  </div>
                ))}
              </dl>
            </div>
            <CodeBlock label={`Test command: ${guide.title}`} title={guide.kind === "api_key" ? "Test command (set the API key first)" : "Test command (set SECRET first)"} code={guide.command} />
          </article>
        ))}
      </div>
    </section>
  );
}
