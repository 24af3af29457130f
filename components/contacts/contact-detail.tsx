"use client";

import { ArrowLeft } from "lucide-react";
import Link from "next/link";
import * as React from "react";
import { PageHeader } from "@/components/ui/page-header";
import { AttributesForm } from "./attributes-form";
import { ConsentPanel } from "./consent-panel";
import { ContactListsPanel } from "./contact-lists-panel";
import { DeleteContactButton } from "./delete-contact-button";
import { formatDate } from "./format";
import { MessageHistory } from "./message-history";
import { OpenConversationButton } from "./open-conversation-button";
import { SimulateReply } from "./simulate-reply";
import type { AttributeDefinition, Contact, ContactList, Page } from "./types";
import { useApi } from "./use-api";

/** One contact: attributes, lists, consent, messages in both directions; sandbox workspaces can simulate a reply of any kind. */
export function ContactDetail({ contactId, sandbox }: { contactId: string; sandbox: boolean }) {
  const contact = useApi<Contact>(`/api/v1/contacts/${contactId}`);
  const attributes = useApi<{ data: AttributeDefinition[] }>("/api/v1/contact-attributes");
  const lists = useApi<Page<ContactList>>("/api/v1/lists?limit=100");
  const [version, setVersion] = React.useState(0);
  const refresh = React.useCallback(() => {
    contact.reload();
    lists.reload();
    setVersion((v) => v + 1);
  }, [contact, lists]);

  const back = (
    <Link href="/contacts" className="mb-3 inline-flex items-center gap-1 text-sm text-muted-foreground hover:text-foreground">
      <ArrowLeft className="size-4" aria-hidden />
      Contacts
    </Link>
  );

  if (contact.problem) {
    return (
      <>
        {back}
        <PageHeader title="Contact not found" description={contact.problem.status === 404 ? "It may have been deleted, or it belongs to another workspace." : contact.problem.detail} />
      </>
    );
  }
  const data = contact.data;
  if (!data) {
    return (
      <>
        {back}
        <p className="text-sm text-muted-foreground" aria-busy="true">Loading contact…</p>
      </>
    );
  }

  return (
    <>
      {back}
      <PageHeader
        title={data.phone}
        description={
          <>
            {data.name ?? "No name"} · added <time dateTime={data.createdAt}>{formatDate(data.createdAt)}</time>
          </>
        }
        actions={
          <div className="flex flex-wrap gap-2">
            <OpenConversationButton contactId={data.id} />
            <DeleteContactButton contactId={data.id} phone={data.phone} />
          </div>
        }
      />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,1fr)_20rem]">
        <div className="grid min-w-0 grid-cols-1 content-start gap-6">
          <AttributesForm key={data.updatedAt} contact={data} definitions={attributes.data?.data ?? []} onSaved={refresh} />
          <MessageHistory contactId={data.id} version={version} />
        </div>
        <div className="grid min-w-0 grid-cols-1 content-start gap-6">
          <ConsentPanel contact={data} onChanged={refresh} />
          <ContactListsPanel contact={data} lists={lists.data?.data ?? []} onChanged={refresh} />
          {sandbox && <SimulateReply contactId={data.id} version={version} onReplied={refresh} />}
        </div>
      </div>
    </>
  );
}
