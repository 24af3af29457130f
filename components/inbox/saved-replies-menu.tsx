"use client";

import { MessageSquareText } from "lucide-react";
import Link from "next/link";
import * as React from "react";
import type { Contact } from "@/components/contacts/types";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { fillSavedReply } from "@/lib/conversations/fill-saved-reply";
import type { SavedReplyView } from "@/lib/conversations/saved-replies";
import { requestJson } from "@/lib/http/client";
import type { PublicConversation } from "./types";

/** Inserts one of the team's saved replies, its `{{attributes}}` filled from the conversation's contact. */
export function SavedRepliesMenu({ conversation, onInsert }: { conversation: PublicConversation; onInsert: (text: string) => void }) {
  const [replies, setReplies] = React.useState<SavedReplyView[] | null>(null);
  const load = async (open: boolean) => {
    if (!open || replies) return;
    const result = await requestJson<{ data: SavedReplyView[] }>("/api/saved-replies");
    setReplies(result.ok ? result.data.data : []);
  };
  const insert = async (reply: SavedReplyView) => {
    const contact = await requestJson<Contact>(`/api/v1/contacts/${conversation.contact.id}`);
    const attributes = contact.ok ? contact.data.attributes : {};
    onInsert(fillSavedReply(reply.body, { name: conversation.contact.name, phone: conversation.contact.phone, attributes }));
  };
  return (
    <DropdownMenu onOpenChange={(open) => void load(open)}>
      <DropdownMenuTrigger asChild>
        <Button type="button" size="sm" variant="ghost" className="h-7">
          <MessageSquareText aria-hidden /> Saved replies
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="start" className="max-w-72">
        <DropdownMenuLabel>Insert a saved reply</DropdownMenuLabel>
        {replies === null && <DropdownMenuItem disabled>Loading…</DropdownMenuItem>}
        {replies?.length === 0 && <DropdownMenuItem disabled>None yet</DropdownMenuItem>}
        {replies?.map((reply) => (
          <DropdownMenuItem key={reply.id} onSelect={() => void insert(reply)} className="grid gap-0.5">
            <span className="font-medium">{reply.title}</span>
            <span className="line-clamp-1 text-xs text-muted-foreground">{reply.body}</span>
          </DropdownMenuItem>
        ))}
        <DropdownMenuSeparator />
        <DropdownMenuItem asChild>
          <Link href="/settings/saved-replies">Manage saved replies</Link>
        </DropdownMenuItem>
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
