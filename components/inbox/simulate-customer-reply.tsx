"use client";

import * as React from "react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { requestJson } from "@/lib/http/client";

/** Sandbox only: the contact "writes" on the sandbox number, as a real reply would arrive on the webhook. */
export function SimulateCustomerReply({ contactId, onReplied }: { contactId: string; onReplied: () => void }) {
  const [text, setText] = React.useState("");
  const [busy, setBusy] = React.useState(false);
  const [problem, setProblem] = React.useState<string | null>(null);
  return (
    <form
      className="grid gap-2"
      onSubmit={async (event) => {
        event.preventDefault();
        setBusy(true);
        setProblem(null);
        const result = await requestJson("/api/sandbox/inbound", { method: "POST", body: { contactId, kind: "text", text } });
        setBusy(false);
        if (!result.ok) return setProblem(result.problem.errors?.[0]?.message ?? result.problem.detail);
        setText("");
        onReplied();
      }}
    >
      <h3 className="text-xs font-medium tracking-wide text-muted-foreground uppercase">Sandbox</h3>
      <div className="flex gap-2">
        <Input aria-label="Customer's message" placeholder="Is it available in blue?" value={text} maxLength={4096} onChange={(event) => setText(event.target.value)} />
        <Button type="submit" size="sm" variant="outline" disabled={busy || !text.trim()}>
          {busy ? "Sending…" : "Simulate reply"}
        </Button>
      </div>
      {problem && (
        <p role="alert" className="text-xs text-destructive">
          {problem}
        </p>
      )}
    </form>
  );
}
