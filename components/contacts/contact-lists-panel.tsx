"use client";

import { X } from "lucide-react";
import Link from "next/link";
import * as React from "react";
import { NativeSelect } from "@/components/campaigns/native-select";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";
import type { Contact, ContactList } from "./types";

/** The static lists the contact belongs to: remove from one, or add to another. */
export function ContactListsPanel({ contact, lists, onChanged }: { contact: Contact; lists: ContactList[]; onChanged: () => void }) {
  const member = contact.lists ?? [];
  const others = lists.filter((list) => !member.some((m) => m.id === list.id));
  const [picked, setPicked] = React.useState("");
  const [busy, setBusy] = React.useState(false);

  async function membership(listId: string, method: "POST" | "DELETE", done: string) {
    setBusy(true);
    const result = await requestJson(`/api/v1/lists/${listId}/contacts`, { method, body: { contactIds: [contact.id] } });
    setBusy(false);
    if (!result.ok) {
      toast.error(result.problem.detail);
      return;
    }
    toast.success(done);
    setPicked("");
    onChanged();
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Lists</CardTitle>
        <CardDescription>Static audiences this contact belongs to.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        {member.length === 0 ? (
          <p className="text-sm text-muted-foreground">Not in any list.</p>
        ) : (
          <ul aria-label="Lists of this contact" className="flex flex-wrap gap-2">
            {member.map((list) => (
              <li key={list.id} className="inline-flex items-center gap-1 rounded-full border py-0.5 pr-1 pl-2.5 text-xs">
                <Link href={`/contacts?listId=${list.id}`} className="hover:text-primary hover:underline">{list.name}</Link>
                <button
                  type="button"
                  disabled={busy}
                  aria-label={`Remove from ${list.name}`}
                  onClick={() => membership(list.id, "DELETE", `Removed from ${list.name}.`)}
                  className="rounded-full p-0.5 text-muted-foreground hover:bg-accent hover:text-foreground"
                >
                  <X className="size-3" aria-hidden />
                </button>
              </li>
            ))}
          </ul>
        )}
        {others.length > 0 && (
          <form
            className="flex flex-wrap items-center gap-2"
            onSubmit={(event) => {
              event.preventDefault();
              const list = others.find((l) => l.id === picked);
              if (list) void membership(list.id, "POST", `Added to ${list.name}.`);
            }}
          >
            <NativeSelect aria-label="List to add to" value={picked} onChange={(event) => setPicked(event.target.value)} className="min-w-40 flex-1">
              <option value="">Choose a list…</option>
              {others.map((list) => (
                <option key={list.id} value={list.id}>{list.name}</option>
              ))}
            </NativeSelect>
            <Button type="submit" variant="outline" disabled={!picked || busy}>Add to list</Button>
          </form>
        )}
      </CardContent>
    </Card>
  );
}
