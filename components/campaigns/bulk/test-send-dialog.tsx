"use client";

import { FlaskConical } from "lucide-react";
import { useEffect, useState } from "react";
import { MessageStatusBadge } from "@/components/contacts/message-status-badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FormField, fieldAria } from "@/components/ui/form-field";
import { Textarea } from "@/components/ui/textarea";
import { requestJson } from "@/lib/http/client";
import type { TestMessage } from "./types";

const FINAL = new Set(["delivered", "read", "failed", "skipped"]);
const POLL_MS = 2000;

export function splitPhones(text: string): string[] {
  return [...new Set(text.split(/[\s,;]+/).map((p) => p.trim()).filter(Boolean))];
}

/** Sends the campaign's message for real to a few phones (marked as tests) and follows each one's status. */
export function TestSendDialog({ campaignId, beforeSend, disabled }: { campaignId: string; beforeSend: () => Promise<boolean>; disabled?: boolean }) {
  const [open, setOpen] = useState(false);
  const [phones, setPhones] = useState("");
  const [error, setError] = useState<string>();
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState<TestMessage[]>([]);
  const pending = sent.some((m) => !FINAL.has(m.status));

  useEffect(() => {
    if (!open || !pending) return;
    const timer = setInterval(async () => {
      const updated = await Promise.all(
        sent.map(async (message) => {
          if (FINAL.has(message.status)) return message;
          const result = await requestJson<TestMessage>(`/api/v1/messages/${message.id}`);
          return result.ok ? result.data : message;
        }),
      );
      setSent(updated);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [open, pending, sent]);

  async function send(event: React.FormEvent) {
    event.preventDefault();
    const list = splitPhones(phones);
    if (list.length === 0) {
      setError("Enter at least one phone number in international format, e.g. +14155552671.");
      return;
    }
    setSending(true);
    setError(undefined);
    try {
      if (!(await beforeSend())) {
        setError("Save the campaign first: some fields need attention.");
        return;
      }
      const result = await requestJson<{ data: TestMessage[] }>(`/api/v1/campaigns/${campaignId}/test-send`, { method: "POST", body: { phones: list } });
      if (!result.ok) {
        setError(result.problem.errors?.map((e) => e.message).join(" ") || result.problem.detail);
        return;
      }
      setSent(result.data.data);
    } finally {
      setSending(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <DialogTrigger asChild>
        <Button type="button" variant="outline" disabled={disabled}>
          <FlaskConical aria-hidden /> Test send
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={send} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>Send a test</DialogTitle>
            <DialogDescription>
              The message goes out for real through your sender, filled from the contact with that phone number (or the fallbacks). Tests are marked as such in
              the logs and never count toward the campaign.
            </DialogDescription>
          </DialogHeader>
          <FormField id="test-phones" label="Phone numbers" error={error} hint="One or more, separated by commas or new lines.">
            <Textarea
              {...fieldAria("test-phones", error, true)}
              rows={2}
              placeholder="+14155552671"
              value={phones}
              onChange={(event) => setPhones(event.target.value)}
            />
          </FormField>
          {sent.length > 0 && (
            <ul className="grid gap-1.5" aria-label="Test messages">
              {sent.map((message) => (
                <li key={message.id} className="flex flex-wrap items-center justify-between gap-2 rounded-md border px-3 py-2 text-sm" data-testid="test-message">
                  <span className="font-mono text-xs">{message.phone}</span>
                  <span className="flex min-w-0 items-center gap-2">
                    {message.error && <span className="truncate text-xs text-destructive">{message.error.reason}</span>}
                    <MessageStatusBadge status={message.status} />
                  </span>
                </li>
              ))}
            </ul>
          )}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Close
            </Button>
            <Button type="submit" disabled={sending}>
              {sending ? "Sending…" : sent.length > 0 ? "Send again" : "Send test"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
