"use client";

import { FlaskConical } from "lucide-react";
import { useEffect, useState } from "react";
import { MessageStatusBadge } from "@/components/contacts/message-status-badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FormField, fieldAria } from "@/components/ui/form-field";
import { Textarea } from "@/components/ui/textarea";
import { countryOptions } from "@/components/contacts/import/countries";
import { useWorkspaceDefaultCountry } from "@/components/contacts/import/default-country";
import { NativeSelect } from "@/components/campaigns/native-select";
import { writeFieldPath } from "@/lib/campaigns/field-path";
import { splitPhoneList } from "@/lib/contacts/phone";
import type { MessageStatus } from "@/lib/statuses/messages";
import { requestJson } from "@/lib/http/client";

/** A test message as `POST …/test-send` and `GET /messages/{id}` answer it. */
export interface TestMessage {
  id: string;
  phone: string;
  status: MessageStatus;
  text?: string;
  error: { code: string | null; reason: string } | null;
}

const FINAL = new Set(["delivered", "read", "failed", "skipped"]);
const POLL_MS = 2000;

/** The example request without its phone field (the dialog asks for the phone on its own). */
function exampleText(example: Record<string, unknown>, phoneField: string): string {
  return JSON.stringify(writeFieldPath(structuredClone(example), phoneField, undefined), null, 2);
}

/**
 * Sends the campaign's message for real to a few phones (marked as tests) and follows each one's
 * status. A trigger campaign's test is rendered from an example request body (`trigger`), validated
 * like a real request; a bulk campaign's from the contact with that phone.
 */
export function TestSendDialog({
  campaignId,
  beforeSend,
  disabled,
  trigger,
  triggerLabel = "Test send",
}: {
  campaignId: string;
  /** Saves pending edits first; false stops the send. */
  beforeSend: () => Promise<boolean>;
  disabled?: boolean;
  /** Trigger campaigns: read when the dialog opens: the example body to start from and the request field that holds the phone. */
  trigger?: () => { example: Record<string, unknown>; phoneField: string };
  triggerLabel?: string;
}) {
  const [open, setOpen] = useState(false);
  const [phones, setPhones] = useState("");
  const workspaceCountry = useWorkspaceDefaultCountry();
  const [country, setCountry] = useState("");
  const [body, setBody] = useState("");
  const [phoneField, setPhoneField] = useState("phone");
  const [phoneError, setPhoneError] = useState<string>();
  const [bodyErrors, setBodyErrors] = useState<string[]>([]);
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

  function changeCountry(code: string) {
    setCountry(code);
  }

  function changeOpen(next: boolean) {
    // Each test starts at the workspace's default country (Settings → Workspace).
    if (next) setCountry(workspaceCountry.country);
    if (next && trigger) {
      const { example, phoneField: field } = trigger();
      setPhoneField(field);
      setBody(exampleText(example, field));
    }
    setOpen(next);
  }

  async function send(event: React.FormEvent) {
    event.preventDefault();
    setPhoneError(undefined);
    setBodyErrors([]);
    const list = splitPhoneList(phones);
    if (list.length === 0) {
      setPhoneError("Enter at least one phone number in international format, e.g. +14155552671.");
      return;
    }
    let request: Record<string, unknown> | undefined;
    if (trigger) {
      try {
        const parsed: unknown = JSON.parse(body || "{}");
        if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw new Error("not an object");
        request = parsed as Record<string, unknown>;
      } catch {
        setBodyErrors(["The request body must be one JSON object, like the one your system sends."]);
        return;
      }
    }
    setSending(true);
    try {
      if (!(await beforeSend())) {
        setPhoneError("Save the campaign first: some fields need attention.");
        return;
      }
      const result = await requestJson<{ data: TestMessage[] }>(`/api/v1/campaigns/${campaignId}/test-send`, {
        method: "POST",
        body: { phones: list, ...(country ? { country } : {}), ...(request ? { request } : {}) },
      });
      if (!result.ok) {
        const errors = result.problem.errors ?? [];
        const forBody = errors.filter((e) => e.path.startsWith("request"));
        const forPhones = errors.filter((e) => !e.path.startsWith("request"));
        setBodyErrors(forBody.map((e) => (e.path.startsWith("request.") ? `${e.path.slice("request.".length)}: ${e.message}` : e.message)));
        if (forPhones.length > 0 || forBody.length === 0) setPhoneError(forPhones.map((e) => e.message).join(" ") || result.problem.detail);
        return;
      }
      setSent(result.data.data);
    } finally {
      setSending(false);
    }
  }

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogTrigger asChild>
        <Button type="button" variant="outline" disabled={disabled}>
          <FlaskConical aria-hidden /> {triggerLabel}
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={send} className="grid gap-4" noValidate>
          <DialogHeader>
            <DialogTitle>Send a test</DialogTitle>
            <DialogDescription>
              {trigger
                ? "The message goes out for real through your sender, filled from the request body below exactly as a webhook call would be. No contact is changed; tests are marked as such in the logs and never count toward the campaign."
                : "The message goes out for real through your sender, filled from the contact with that phone number (or the fallbacks). Tests are marked as such in the logs and never count toward the campaign."}
            </DialogDescription>
          </DialogHeader>
          <FormField
            id="test-phones"
            label={trigger ? "Your phone number" : "Phone numbers"}
            error={phoneError}
            hint="With + and the country code, or pick the country below; several numbers go on separate lines or between commas."
          >
            <Textarea {...fieldAria("test-phones", phoneError, true)} rows={2} placeholder="+14155552671" value={phones} onChange={(event) => setPhones(event.target.value)} />
          </FormField>
          <div className="grid gap-2">
            <label htmlFor="test-country" className="text-sm font-medium">
              Country of numbers without a country code
            </label>
            <NativeSelect id="test-country" value={country} onChange={(event) => changeCountry(event.target.value)}>
              <option value="">None (numbers start with +)</option>
              {countryOptions().map((option) => (
                <option key={option.code} value={option.code}>
                  {option.label}
                </option>
              ))}
            </NativeSelect>
          </div>
          {trigger && (
            <div className="grid gap-2">
              <label htmlFor="test-request" className="text-sm font-medium">
                Request body
              </label>
              <Textarea
                id="test-request"
                rows={6}
                spellCheck={false}
                className="font-mono text-xs"
                aria-invalid={bodyErrors.length > 0 || undefined}
                aria-describedby={bodyErrors.length > 0 ? "test-request-error" : "test-request-hint"}
                value={body}
                onChange={(event) => setBody(event.target.value)}
              />
              {bodyErrors.length > 0 ? (
                <ul id="test-request-error" role="alert" className="grid gap-0.5 text-xs font-medium text-destructive">
                  {bodyErrors.map((message) => (
                    <li key={message}>{message}</li>
                  ))}
                </ul>
              ) : (
                <p id="test-request-hint" className="text-xs text-muted-foreground">
                  JSON, as your system would POST it; the phone number above takes the place of <code className="font-mono">{phoneField}</code>.
                </p>
              )}
            </div>
          )}
          {sent.length > 0 && (
            <ul className="grid gap-1.5" aria-label="Test messages">
              {sent.map((message) => (
                <li key={message.id} className="grid gap-1 rounded-md border px-3 py-2 text-sm" data-testid="test-message">
                  <span className="flex flex-wrap items-center justify-between gap-2">
                    <span className="font-mono text-xs">{message.phone}</span>
                    <span className="flex min-w-0 items-center gap-2">
                      {message.error && <span className="truncate text-xs text-destructive">{message.error.reason}</span>}
                      <MessageStatusBadge status={message.status} />
                    </span>
                  </span>
                  {trigger && message.text && <span className="text-xs whitespace-pre-line text-muted-foreground">{message.text}</span>}
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
