"use client";

import { ArrowLeft, CheckCircle2, RotateCcw } from "lucide-react";
import Link from "next/link";
import * as React from "react";
import { NativeSelect } from "@/components/campaigns/native-select";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { requestJson } from "@/lib/http/client";
import { contactLabel, type InboxContext, type PublicConversation } from "./types";

/** Who the conversation is with, on which number; assign it, close or reopen it. */
export function ConversationHeader({
  conversation,
  context,
  backHref,
  onChanged,
}: {
  conversation: PublicConversation;
  context: InboxContext;
  backHref: string;
  onChanged: (next?: PublicConversation) => void;
}) {
  const [busy, setBusy] = React.useState(false);
  const [error, setError] = React.useState<string | null>(null);
  const { contact } = conversation;
  const name = contactLabel(contact);
  const sender = context.senders.find((option) => option.id === conversation.sender.id)?.label ?? ([conversation.sender.name, conversation.sender.phone].filter(Boolean).join(" · ") || "Removed number");

  const act = async (path: string, body?: unknown) => {
    setBusy(true);
    setError(null);
    const result = await requestJson<PublicConversation>(`/api/v1/conversations/${conversation.id}/${path}`, { method: "POST", body });
    setBusy(false);
    if (result.ok) onChanged(result.data);
    else setError(result.problem.errors?.[0]?.message ?? result.problem.detail);
  };

  // An assignee who left the workspace still shows, so the select never lies about the conversation.
  const assigneeMissing = conversation.assignee && !context.members.some((member) => member.id === conversation.assignee!.id);
  return (
    <header className="border-b px-4 py-3 sm:px-5">
      <div className="flex flex-wrap items-center gap-x-3 gap-y-2">
        <Link href={backHref} className="-ml-1 rounded-md p-1 text-muted-foreground outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring md:hidden" aria-label="Back to conversations">
          <ArrowLeft className="size-5" aria-hidden />
        </Link>
        <div className="min-w-0 flex-1">
          <h2 className="flex flex-wrap items-center gap-2 text-base font-semibold">
            <span className="truncate">{name}</span>
            {contact.optedOut ? (
              <Badge variant="destructive">Opted out</Badge>
            ) : contact.consentStatus === "subscribed" ? (
              <Badge variant="success">Subscribed</Badge>
            ) : contact.consentStatus === "unsubscribed" ? (
              <Badge variant="warning">Unsubscribed</Badge>
            ) : null}
            {conversation.status === "closed" && <Badge variant="secondary">Closed</Badge>}
          </h2>
          <p className="truncate text-xs text-muted-foreground">
            {name !== contact.phone && <span className="font-mono">{contact.phone} · </span>}
            on {sender}
            {conversation.campaign && <> · started by {conversation.campaign.name ?? "a campaign"}</>}
          </p>
        </div>
        <div className="flex w-full items-center gap-2 sm:w-auto">
          <NativeSelect
            aria-label="Assignee"
            value={conversation.assignee?.id ?? ""}
            disabled={busy}
            onChange={(event) => void act("assign", { assigneeId: event.target.value || null })}
            className="min-w-0 flex-1 sm:w-44 sm:flex-none"
          >
            <option value="">Unassigned</option>
            {assigneeMissing && <option value={conversation.assignee!.id}>{conversation.assignee!.name ?? "Former member"}</option>}
            {context.members.map((member) => (
              <option key={member.id} value={member.id}>
                {member.id === context.me.id ? `${member.name} (you)` : member.name}
              </option>
            ))}
          </NativeSelect>
          {conversation.status === "open" ? (
            <Button variant="outline" size="sm" disabled={busy} onClick={() => void act("close")}>
              <CheckCircle2 aria-hidden />
              Close
            </Button>
          ) : (
            <Button variant="outline" size="sm" disabled={busy} onClick={() => void act("reopen")}>
              <RotateCcw aria-hidden />
              Reopen
            </Button>
          )}
        </div>
      </div>
      {error && (
        <p role="alert" className="mt-2 text-sm text-destructive">
          {error}
        </p>
      )}
    </header>
  );
}
