"use client";

import * as React from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";

/** Sandbox only: pretend the contact replied, as the WhatsApp webhook would report it. */
export function SimulateReply({ contactId, onReplied }: { contactId: string; onReplied: () => void }) {
  const [text, setText] = React.useState("");
  const [busy, setBusy] = React.useState(false);
  async function send(event: React.FormEvent) {
    event.preventDefault();
    if (!text.trim()) return;
    setBusy(true);
    const result = await requestJson<{ action: "opted_out" | "opted_in" | "none"; changed: boolean }>("/api/sandbox/inbound", { method: "POST", body: { contactId, text } });
    setBusy(false);
    if (!result.ok) {
      toast.error(result.problem.detail);
      return;
    }
    const { action, changed } = result.data;
    toast.success(
      action === "none"
        ? "Reply received. It is not a consent keyword, so nothing changed."
        : action === "opted_out"
          ? changed ? "Reply received: the contact opted out." : "Reply received: the contact was already opted out."
          : changed ? "Reply received: the contact opted back in." : "Reply received: the contact was already opted in.",
    );
    setText("");
    onReplied();
  }
  return (
    <Card>
      <CardHeader>
        <CardTitle>Simulate a reply</CardTitle>
        <CardDescription>Sandbox: send an inbound message from this contact. Try STOP or START.</CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={send} className="flex gap-2">
          <Input aria-label="Reply text" placeholder="STOP" value={text} onChange={(event) => setText(event.target.value)} maxLength={1000} />
          <Button type="submit" variant="outline" disabled={busy || !text.trim()}>Send reply</Button>
        </form>
      </CardContent>
    </Card>
  );
}
