import { Send } from "lucide-react";
import Link from "next/link";
import { EmptyState } from "@/components/ui/empty-state";

/** Empty logs of a campaign: how to send the first message. */
export function FirstMessageEmptyState({ curl, campaignId, active }: { curl: string; campaignId: string; active: boolean }) {
  return (
    <EmptyState
      icon={<Send aria-hidden />}
      title="No messages yet"
      description={
        active ? (
          "Send the first message by calling this campaign's webhook with an API key. It shows up here within seconds, no reload needed."
        ) : (
          <>
            This campaign is not active yet. <Link href={`/campaigns/${campaignId}`} className="text-primary underline underline-offset-4">Deploy it</Link>, then call its webhook with an API key to send the first message.
          </>
        )
      }
      action={
        <Link href="/settings/api-keys" className="text-sm text-primary underline-offset-4 hover:underline">
          Create an API key
        </Link>
      }
    >
      <figure className="mt-6 w-full max-w-2xl text-left">
        <figcaption className="mb-1.5 text-xs font-medium text-muted-foreground">Send a first message</figcaption>
        <pre tabIndex={0} role="region" aria-label="curl example" className="min-w-0 overflow-x-auto rounded-lg border bg-muted/60 p-4 font-mono text-xs leading-relaxed">
          <code>{curl}</code>
        </pre>
      </figure>
    </EmptyState>
  );
}

/** Filters matched nothing (the campaign does have messages). */
export function NoMatchesEmptyState({ clearHref }: { clearHref: string }) {
  return (
    <EmptyState
      title="No messages match these filters"
      description="Try another status or date range, or search with fewer digits of the phone number."
      action={
        <Link href={clearHref} className="text-sm text-primary underline-offset-4 hover:underline">
          Clear filters
        </Link>
      }
    />
  );
}
