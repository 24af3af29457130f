"use client";

import { ChevronDown, ExternalLink } from "lucide-react";
import Link from "next/link";
import type { Contact } from "@/components/contacts/types";
import { useApi } from "@/components/contacts/use-api";
import { LocalTime } from "@/components/ui/local-time";
import { SimulateCustomerReply } from "./simulate-customer-reply";
import type { PublicConversation } from "./types";

const CONSENT: Record<Contact["consent"]["status"], string> = { subscribed: "Subscribed", unsubscribed: "Unsubscribed", unknown: "Not recorded" };

/**
 * The contact's consent, attributes and lists, with the way to their page. `collapsible`: folded
 * under the header (narrow screens). `onSimulated`: on the sandbox number, a member can make the
 * contact reply.
 */
export function ContactPanel({ conversation, collapsible = false, onSimulated }: { conversation: PublicConversation; collapsible?: boolean; onSimulated?: () => void }) {
  const body = (
    <div className="grid gap-5">
      <ContactDetails conversation={conversation} />
      {onSimulated && <SimulateCustomerReply contactId={conversation.contact.id} onReplied={onSimulated} />}
    </div>
  );
  if (!collapsible) return <div className="p-5">{body}</div>;
  return (
    <details className="group border-b">
      <summary className="flex cursor-pointer list-none items-center gap-1.5 px-4 py-2 text-sm text-muted-foreground outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring focus-visible:ring-inset sm:px-5">
        <ChevronDown className="size-4 transition-transform group-open:rotate-180" aria-hidden />
        Contact details
      </summary>
      <div className="max-h-72 overflow-y-auto px-4 pb-4 sm:px-5">{body}</div>
    </details>
  );
}

function ContactDetails({ conversation }: { conversation: PublicConversation }) {
  const { data: contact, problem } = useApi<Contact>(`/api/v1/contacts/${conversation.contact.id}`);
  const attributes = Object.entries(contact?.attributes ?? {});
  return (
    <div className="grid gap-4 text-sm">
      <div>
        <h3 className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Consent</h3>
        {contact ? (
          <p className="mt-1">
            {contact.consent.optedOut ? "Opted out of marketing" : CONSENT[contact.consent.status]}
            {contact.consent.optedOut && contact.consent.optedOutAt && (
              <span className="text-muted-foreground">
                {" "}
                since <LocalTime iso={contact.consent.optedOutAt} />
              </span>
            )}
          </p>
        ) : (
          <p className="mt-1 text-muted-foreground">{problem ? problem.detail : "Loading…"}</p>
        )}
      </div>
      {contact && (
        <div>
          <h3 className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Attributes</h3>
          {attributes.length === 0 ? (
            <p className="mt-1 text-muted-foreground">None yet.</p>
          ) : (
            <dl className="mt-1 grid grid-cols-[minmax(0,2fr)_minmax(0,3fr)] gap-x-3 gap-y-1">
              {attributes.map(([key, value]) => (
                <div key={key} className="contents">
                  <dt className="truncate font-mono text-xs leading-5 text-muted-foreground">{key}</dt>
                  <dd className="break-words">{value === null || value === undefined ? "—" : String(value)}</dd>
                </div>
              ))}
            </dl>
          )}
        </div>
      )}
      {contact && contact.lists.length > 0 && (
        <div>
          <h3 className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Lists</h3>
          <p className="mt-1">{contact.lists.map((list) => list.name).join(", ")}</p>
        </div>
      )}
      <Link href={`/contacts/${conversation.contact.id}`} className="inline-flex items-center gap-1 text-primary underline-offset-4 hover:underline">
        Open contact page
        <ExternalLink className="size-3.5" aria-hidden />
      </Link>
    </div>
  );
}
