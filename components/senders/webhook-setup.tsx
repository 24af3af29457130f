"use client";

import { RefreshCw } from "lucide-react";
import { CopyButton } from "@/components/campaigns/copy-button";
import { Button } from "@/components/ui/button";
import { FormField, fieldAria } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";

/** 32 URL-safe characters from the browser's cryptographic random source (about 190 bits). */
export function generateVerifyToken(): string {
  const alphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return Array.from(bytes, (byte) => alphabet[byte % 64]).join("");
}

/** What to paste into Meta's webhook settings: the callback URL and the verify token. */
export function WebhookSetup({
  webhookUrl,
  verifyToken,
  storedVerifyToken,
  error,
  onVerifyTokenChange,
}: {
  webhookUrl: string;
  verifyToken: string;
  /** The saved token, masked; null when none is saved. */
  storedVerifyToken: string | null;
  error?: string;
  onVerifyTokenChange: (value: string) => void;
}) {
  const hint = verifyToken
    ? "Copy it into Meta's webhook settings, then save here. After saving it is shown masked only."
    : storedVerifyToken
      ? `Saved (${storedVerifyToken}). Leave blank to keep it, or generate a new one.`
      : "Any secret string you also enter in Meta's webhook settings. Generate one to be safe.";
  return (
    <>
      <div className="grid gap-2 sm:col-span-2">
        <p id="webhook-url-label" className="text-sm font-medium">
          Callback URL
        </p>
        <div className="flex min-w-0 gap-2">
          <code aria-labelledby="webhook-url-label" className="min-w-0 flex-1 truncate rounded-md border bg-muted/50 px-2.5 py-1.5 font-mono text-xs" title={webhookUrl}>
            {webhookUrl}
          </code>
          <CopyButton value={webhookUrl} label="Copy callback URL" />
        </div>
        <p className="text-xs text-muted-foreground">Paste it in Meta for Developers → WhatsApp → Configuration → Webhook, and subscribe to the messages field.</p>
      </div>
      <FormField id="verify-token" label="Webhook verify token" error={error} hint={hint} className="sm:col-span-2">
        <div className="flex min-w-0 flex-wrap gap-2">
          <Input
            {...fieldAria("verify-token", error, true)}
            autoComplete="off"
            spellCheck={false}
            value={verifyToken}
            onChange={(event) => onVerifyTokenChange(event.target.value)}
            className="min-w-0 flex-1 basis-56 font-mono text-xs"
          />
          <Button type="button" variant="outline" size="sm" className="h-9" aria-label="Generate verify token" onClick={() => onVerifyTokenChange(generateVerifyToken())}>
            <RefreshCw aria-hidden />
            Generate
          </Button>
          {verifyToken && <CopyButton value={verifyToken} label="Copy verify token" className="h-9" />}
        </div>
      </FormField>
    </>
  );
}
