"use client";

import { ChevronRight, Upload, Users } from "lucide-react";
import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { ContactsFilters, type ContactsQuery } from "./contacts-filters";
import { attributeText, formatDate } from "./format";
import { MessageStatusBadge } from "./message-status-badge";
import type { AttributeDefinition, Contact, ContactList, Page, Segment } from "./types";
import { useApi } from "./use-api";

const ATTRIBUTE_COLUMNS = 3;
const PAGE_SIZE = 50;

function queryString(query: ContactsQuery, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...query, ...extra })) if (value) params.set(key, value);
  return params.toString();
}

/** The contacts table: filters in the URL, rows read from GET /api/v1/contacts, keyset pages. */
export function ContactsBrowser({ query }: { query: ContactsQuery }) {
  const { cursor, ...filters } = query;
  const contacts = useApi<Page<Contact>>(`/api/v1/contacts?${queryString(query, { limit: String(PAGE_SIZE) })}`);
  const lists = useApi<Page<ContactList>>("/api/v1/lists?limit=100");
  const segments = useApi<Page<Segment>>("/api/v1/segments?limit=100");
  const attributes = useApi<{ data: AttributeDefinition[] }>("/api/v1/contact-attributes");
  const columns = (attributes.data?.data ?? []).slice(0, ATTRIBUTE_COLUMNS);
  const filtered = Boolean(filters.search || filters.listId || filters.segmentId || filters.optedOut);
  const rows = contacts.data?.data ?? [];

  if (!contacts.loading && !contacts.problem && !filtered && !cursor && rows.length === 0) {
    return (
      <EmptyState
        icon={<Users aria-hidden />}
        title="No contacts yet"
        description="Import a CSV of phone numbers, names and attributes, or add contacts through the REST API. Trigger campaigns add the people they message too."
        action={
          <Button asChild>
            <Link href="/contacts/import"><Upload aria-hidden />Import contacts</Link>
          </Button>
        }
      />
    );
  }

  return (
    <div className="grid gap-5">
      <ContactsFilters values={filters} lists={lists.data?.data ?? []} segments={segments.data?.data ?? []} />
      {contacts.problem ? (
        <p role="alert" className="rounded-xl border border-destructive/30 bg-destructive/5 p-4 text-sm text-destructive">
          {contacts.problem.detail}
        </p>
      ) : (
        <div className="overflow-hidden rounded-xl border" aria-busy={contacts.loading}>
          <Table aria-label="Contacts">
            <TableHeader>
              <TableRow>
                <TableHead>Phone</TableHead>
                <TableHead>Name</TableHead>
                {columns.map((column) => (
                  <TableHead key={column.key} className="font-mono">{column.key}</TableHead>
                ))}
                <TableHead>Lists</TableHead>
                <TableHead>Consent</TableHead>
                <TableHead>Last message</TableHead>
                <TableHead>Created</TableHead>
              </TableRow>
            </TableHeader>
            <TableBody>
              {rows.map((contact) => (
                <TableRow key={contact.id} data-contact-id={contact.id}>
                  <TableCell className="font-mono text-xs">
                    <Link href={`/contacts/${contact.id}`} className="font-medium hover:text-primary hover:underline">
                      {contact.phone}
                    </Link>
                  </TableCell>
                  <TableCell className="max-w-48 truncate">{contact.name ?? <span className="text-muted-foreground">—</span>}</TableCell>
                  {columns.map((column) => (
                    <TableCell key={column.key} className="max-w-40 truncate text-muted-foreground">
                      {attributeText(contact.attributes?.[column.key])}
                    </TableCell>
                  ))}
                  <TableCell className="max-w-48 truncate text-muted-foreground">
                    {contact.lists?.length ? contact.lists.map((list) => list.name).join(", ") : "—"}
                  </TableCell>
                  <TableCell>
                    {contact.consent?.optedOut ? (
                      <Badge variant="warning">Unsubscribed</Badge>
                    ) : contact.consent?.status === "subscribed" ? (
                      <Badge variant="success">Subscribed</Badge>
                    ) : (
                      <span className="text-muted-foreground">Unknown</span>
                    )}
                  </TableCell>
                  <TableCell>
                    {contact.lastMessageStatus ? <MessageStatusBadge status={contact.lastMessageStatus} /> : <span className="text-muted-foreground">—</span>}
                  </TableCell>
                  <TableCell className="text-muted-foreground">
                    <time dateTime={contact.createdAt}>{formatDate(contact.createdAt)}</time>
                  </TableCell>
                </TableRow>
              ))}
              {!contacts.loading && rows.length === 0 && (
                <TableRow>
                  <TableCell colSpan={6 + columns.length} className="py-10 text-center text-muted-foreground">
                    No contacts match these filters.
                  </TableCell>
                </TableRow>
              )}
              {contacts.loading && rows.length === 0 && (
                <TableRow>
                  <TableCell colSpan={6 + columns.length} className="py-10 text-center text-muted-foreground">
                    Loading contacts…
                  </TableCell>
                </TableRow>
              )}
            </TableBody>
          </Table>
        </div>
      )}
      {(cursor || contacts.data?.nextCursor) && (
        <nav aria-label="Pagination" className="flex items-center justify-between gap-2">
          <div>
            {cursor && (
              <Button asChild variant="ghost" size="sm">
                <Link href={`/contacts?${queryString(filters)}`}>Back to newest</Link>
              </Button>
            )}
          </div>
          {contacts.data?.nextCursor ? (
            <Button asChild variant="outline" size="sm">
              <Link href={`/contacts?${queryString(filters, { cursor: contacts.data.nextCursor })}`}>Older<ChevronRight aria-hidden /></Link>
            </Button>
          ) : (
            <Button variant="outline" size="sm" disabled>Older<ChevronRight aria-hidden /></Button>
          )}
        </nav>
      )}
    </div>
  );
}
