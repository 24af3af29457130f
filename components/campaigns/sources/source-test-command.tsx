"use client";

import type { DeploymentDetails } from "@/lib/campaigns/deployment";
import { SOURCE_KIND_LABELS, type SourceKind } from "@/lib/sources/kinds";
import { signedTestCommand, testBody } from "@/lib/sources/test-command";
import { CommandBlock } from "../command-block";
import { CopyButton } from "../copy-button";
import { CurlExample } from "../deployment-details";
import { useCampaignSource } from "./use-campaign-source";

/** The exact URL and a copyable command that signs a sample body the way the source does. */
export function SignedCommand({ kind, url, topics, example }: { kind: SourceKind; url: string; topics: string[]; example: unknown }) {
  const { body, topic } = testBody(kind, topics, example);
  const command = signedTestCommand({ kind, url, body, topic });
  const label = SOURCE_KIND_LABELS[kind];
  return (
    <div className="grid min-w-0 gap-1.5">
      <div className="grid min-w-0 gap-1">
        <p className="text-xs font-medium text-muted-foreground">
          URL for {label} <span className="font-normal">· POST · no key in it: the signature proves the caller</span>
        </p>
        <div className="flex min-w-0 items-start gap-2">
          <code className="min-w-0 flex-1 rounded-md border bg-muted/50 px-2.5 py-1.5 font-mono text-xs break-all" data-testid="source-url">
            {url}
          </code>
          <CopyButton value={url} label={`Copy the URL for ${label}`} />
        </div>
      </div>
      <CommandBlock
        intro={
          <>
            Try it: set <code className="rounded bg-muted px-1 font-mono">SECRET</code> to the signing secret, then run this in a terminal (needs openssl and curl).
          </>
        }
        command={command}
        copyLabel="Copy test command"
        regionLabel="Signed test command"
        testId="source-test-command"
        className="max-h-72 overflow-auto"
      />
    </div>
  );
}

/** For a deployed campaign: the signed source's command, or today's API key example. */
export function SourceTestCommand({ campaignId, deployment }: { campaignId: string; deployment: DeploymentDetails }) {
  const { source } = useCampaignSource(campaignId);
  if (!source || source.kind === "api_key") return <CurlExample curl={deployment.curl} />;
  return <SignedCommand kind={source.kind} url={source.url || deployment.webhookUrls.trigger} topics={source.topics} example={deployment.samplePayload} />;
}
