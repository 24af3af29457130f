"use client";

import { ChevronRight, Upload, UserPlus, Users } from "lucide-react";
import Link from "next/link";
import * as React from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EmptyState } from "@/components/ui/empty-state";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { AddContactDialog } from "./add-contact-dialog";
import { ColumnChooser, useAttributeColumns } from "./column-chooser";
import { ContactsFilters, type ContactsQuery } from "./contacts-filters";
import { attributeText, formatCount, formatDate, humanizeKey } from "./format";
import { MessageStatusBadge } from "./message-status-badge";
import type { AttributeDefinition, Contact, ContactList, Page, Segment } from "./types";
import { useApi } from "./use-api";

const PAGE_SIZE = 50;

function queryString(query: ContactsQuery, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries({ ...query, ...extra })) if (value) params.set(key, value);
  return params.toString();
}

const plural = (n: number) => `${formatCount(n)} ${n === 1 ? "contact" : "contacts"}`;

/**
 * The contacts table: filters in the URL, rows read from GET /api/v1/contacts, keyset pages, the
 * total (and matching) count from GET /api/v1/contacts/count, attribute columns the user picks.
 */
export function ContactsBrowser({ query, columnScope }: { query: ContactsQuery; columnScope: string }) {
  const { cursor, ...filters } = query;
  const [adding, setAdding] = React.useState(false);
  const contacts = useApi<Page<Contact>>(`/api/v1/contacts?${queryString(query, { limit: String(PAGE_SIZE) })}`);
  const total = useApi<{ contactCount: number }>("/api/v1/contacts/count");
  const filtered = Boolean(filters.search || filters.listId || filters.segmentId || filters.optedOut);
  const matching = useApi<{ contactCount: number }>(filtered ? `/api/v1/contacts/count?${queryString(filters)}` : null);
  const lists = useApi<Page<ContactList>>("/api/v1/lists?limit=100");
  const segments = useApi<Page<Segment>>("/api/v1/segments?limit=100");
  const attributes = useApi<{ data: AttributeDefinition[] }>("/api/v1/contact-attributes");
  const keys = (attributes.data?.data ?? []).map((definition) => definition.key);
  const { shown: columns, toggle } = useAttributeColumns(columnScope, keys);
  const rows = contacts.data?.data ?? [];
  const reloadAll = () => {
    contacts.reload();
    total.reload();
    matching.reload();
  };
  const addButton = (
    <Button onClick={() => setAdding(true)}>
      <UserPlus aria-hidden />Add contact
    </Button>
  );
  const dialog = adding && <AddContactDialog open onOpenChange={setAdding} onCreated={reloadAll} />;

  if (!contacts.loading && !contacts.problem && !filtered && !cursor && rows.length === 0) {
    return (
      <>
        <EmptyState
          icon={<Users aria-hidden />}
          title="No contacts yet"
          description="Add a contact by hand, import a CSV of phone numbers, names and attributes, or add contacts through the REST API. Trigger campaigns add the people they message too."
          action={
            <div className="flex flex-wrap justify-center gap-2">
              {addButton}
              <Button asChild variant="outline">
                <Link href="/contacts/import"><Upload aria-hidden />Import contacts</Link>
              </Button>
            </div>
          }
        />
        {dialog}
      </>
    );
  }

  return (
    <div className="grid min-w-0 grid-cols-1 gap-5">
      <ContactsFilters values={filters} lists={lists.data?.data ?? []} segments={segments.data?.data ?? []} />
      <div className="flex flex-wrap items-center justify-between gap-3">
        <p className="text-sm text-muted-foreground" aria-live="polite" data-testid="contacts-count">
          {total.data ? <span className="font-medium text-foreground">{plural(total.data.contactCount)}</span> : "Counting contacts…"}
          {filtered && matching.data && <> · {formatCount(matching.data.contactCount)} matching</>}
        </p>
        <div className="flex flex-wrap items-center gap-2">
          <ColumnChooser keys={keys} shown={columns} onToggle={toggle} />
          {addButton}
        </div>
      </div>
      {dialog}
      {contacts.problem ? (
        <p role="alert" className="rounded-xl border border-destructive/30 bg-destructive/5 p-4 text-sm text-destructive">
          {contacts.problem.detail}
        </p>
      ) : (
        <div className="grid min-w-0 gap-2">
          <p id="contacts-scroll-hint" className="text-xs text-muted-foreground md:hidden">
            Scroll the table sideways to see every column.
          </p>
          <div className="min-w-0 overflow-hidden rounded-xl border" aria-busy={contacts.loading}>
            {/* Wide tables scroll inside their own box (keyboard too: it takes focus), never the page. */}
            <Table
              aria-label="Contacts"
              container={{ role: "region", "aria-label": "Contacts table", "aria-describedby": "contacts-scroll-hint", tabIndex: 0, className: "scroll-shadow-x focus-visible:outline-none focus-visible:ring-[3px] focus-visible:ring-ring focus-visible:ring-inset" }}
            >
              <TableHeader>
                <TableRow>
                  <TableHead>Phone</TableHead>
                  <TableHead>Name</TableHead>
                  {columns.map((key) => (
                    <TableHead key={key} title={key}>{humanizeKey(key)}</TableHead>
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
                    {columns.map((key) => (
                      <TableCell key={key} className="max-w-40 truncate text-muted-foreground">
                        {attributeText(contact.attributes?.[key])}
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
