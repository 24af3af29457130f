"use client";

import { Clock, Lock, Send } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { Textarea } from "@/components/ui/textarea";
import { CAPTION_MAX, NOTE_MAX, TEXT_MAX } from "@/lib/conversations/schemas";
import { cn } from "@/lib/utils";
import { durationUntil, useNow } from "./relative-time";
import { SavedRepliesMenu } from "./saved-replies-menu";
import { ProblemMessage, useSend } from "./send";
import { TemplateComposer } from "./template-composer";
import type { PublicConversation } from "./types";

type Mode = "reply" | "note";
type Kind = "text" | "image" | "document";

/** Replies (free-form inside the 24-hour window, a template outside it) and internal notes. */
export function Composer({ conversation, onSent }: { conversation: PublicConversation; onSent: () => void }) {
  const [mode, setMode] = React.useState<Mode>("reply");
  const now = useNow(15_000);
  const endsAt = conversation.window.endsAt;
  const open = conversation.window.open && endsAt !== null && (now === null || Date.parse(endsAt) > now);
  const tab = (value: Mode, label: string) => (
    <button
      type="button"
      role="tab"
      id={`composer-tab-${value}`}
      aria-selected={mode === value}
      aria-controls="composer-panel"
      onClick={() => setMode(value)}
      className={cn(
        "-mb-px border-b-2 border-transparent px-1 pb-1.5 text-sm text-muted-foreground outline-none hover:text-foreground focus-visible:ring-[3px] focus-visible:ring-ring",
        mode === value && "border-primary font-medium text-foreground",
      )}
    >
      {label}
    </button>
  );
  return (
    <div className="border-t bg-background px-3 pt-2 pb-3 sm:px-5">
      <div className="mb-2 flex items-end justify-between gap-3 border-b">
        <div role="tablist" aria-label="Write" className="flex gap-4">
          {tab("reply", "Reply")}
          {tab("note", "Note")}
        </div>
        {mode === "reply" && (
          <p className={cn("mb-1.5 inline-flex items-center gap-1 text-xs", open ? "text-[oklch(0.45_0.12_155)]" : "text-muted-foreground")}>
            <Clock className="size-3.5" aria-hidden />
            {open && endsAt ? (now === null ? "Window open" : `Window closes in ${durationUntil(endsAt, now)}`) : "Window closed"}
          </p>
        )}
      </div>
      <div role="tabpanel" id="composer-panel" aria-labelledby={`composer-tab-${mode}`}>
        {mode === "note" ? (
          <NoteForm conversationId={conversation.id} onSent={onSent} />
        ) : open ? (
          <FreeForm conversation={conversation} onSent={onSent} />
        ) : (
          <TemplateComposer conversation={conversation} onSent={onSent} />
        )}
      </div>
    </div>
  );
}

const submitOnModEnter = (event: React.KeyboardEvent<HTMLTextAreaElement>) => {
  if (event.key === "Enter" && (event.metaKey || event.ctrlKey)) {
    event.preventDefault();
    event.currentTarget.form?.requestSubmit();
  }
};

function FreeForm({ conversation, onSent }: { conversation: PublicConversation; onSent: () => void }) {
  const conversationId = conversation.id;
  const [kind, setKind] = React.useState<Kind>("text");
  const [text, setText] = React.useState("");
  const [url, setUrl] = React.useState("");
  const [caption, setCaption] = React.useState("");
  const [filename, setFilename] = React.useState("");
  const { busy, problem, send } = useSend(`/api/v1/conversations/${conversationId}/replies`, onSent);
  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const body =
      kind === "text" ? { type: "text", text } : { type: kind, url, caption: caption || undefined, ...(kind === "document" && filename ? { filename } : {}) };
    if (await send(body)) {
      setText("");
      setUrl("");
      setCaption("");
      setFilename("");
    }
  };
  return (
    <form onSubmit={submit} className="grid gap-2">
      <ProblemMessage problem={problem} />
      {kind === "text" ? (
        <Textarea aria-label="Reply" placeholder="Write a reply… (Ctrl+Enter to send)" value={text} maxLength={TEXT_MAX} onChange={(event) => setText(event.target.value)} onKeyDown={submitOnModEnter} rows={2} className="max-h-48" />
      ) : (
        <div className="grid gap-2 sm:grid-cols-2">
          <Input aria-label={kind === "image" ? "Image URL" : "Document URL"} placeholder="https://…" type="url" value={url} onChange={(event) => setUrl(event.target.value)} className="sm:col-span-2" />
          <Input aria-label="Caption (optional)" placeholder="Caption (optional)" value={caption} maxLength={CAPTION_MAX} onChange={(event) => setCaption(event.target.value)} className={kind === "image" ? "sm:col-span-2" : undefined} />
          {kind === "document" && <Input aria-label="File name (optional)" placeholder="File name (optional)" value={filename} onChange={(event) => setFilename(event.target.value)} />}
        </div>
      )}
      <div className="flex items-center justify-between gap-3">
        <div className="flex flex-wrap items-center gap-1">
          <div role="group" aria-label="Message type" className="flex gap-1">
            {(["text", "image", "document"] as const).map((value) => (
              <Button key={value} type="button" size="sm" variant={kind === value ? "secondary" : "ghost"} aria-pressed={kind === value} onClick={() => setKind(value)} className="h-7 capitalize">
                {value}
              </Button>
            ))}
          </div>
          {kind === "text" && <SavedRepliesMenu conversation={conversation} onInsert={(inserted) => setText((current) => (current.trim() ? `${current}\n${inserted}` : inserted))} />}
        </div>
        <Button type="submit" size="sm" disabled={busy || (kind === "text" ? !text.trim() : !url.trim())}>
          <Send aria-hidden />
          {busy ? "Sending…" : "Send"}
        </Button>
      </div>
    </form>
  );
}

function NoteForm({ conversationId, onSent }: { conversationId: string; onSent: () => void }) {
  const [body, setBody] = React.useState("");
  const { busy, problem, send } = useSend(`/api/v1/conversations/${conversationId}/notes`, onSent);
  return (
    <form
      className="grid gap-2"
      onSubmit={async (event) => {
        event.preventDefault();
        if (await send({ body })) setBody("");
      }}
    >
      <ProblemMessage problem={problem} />
      <Textarea aria-label="Note" placeholder="Only your team sees notes… (Ctrl+Enter to save)" value={body} maxLength={NOTE_MAX} onChange={(event) => setBody(event.target.value)} onKeyDown={submitOnModEnter} rows={3} className="border-warning/50 bg-warning/5" />
      <div className="flex items-center justify-between gap-3">
        <p className="inline-flex items-center gap-1 text-xs text-muted-foreground">
          <Lock className="size-3" aria-hidden />
          Internal: never sent to the contact
        </p>
        <Button type="submit" size="sm" variant="secondary" disabled={busy || !body.trim()}>
          {busy ? "Saving…" : "Add note"}
        </Button>
      </div>
    </form>
  );
}
