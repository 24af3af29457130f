"use client";

import { FlaskConical, Plug } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField, fieldAria } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";
import { connectionKey, saveConfirmation, type SaveConfirmation } from "@/lib/senders/save-confirmation";
import { isMessagingTier, whatsappSenderSettingsSchema, type MessagingTier } from "@/lib/senders/schemas";
import type { ConnectionTestResult, SenderView } from "@/lib/senders/service";
import { cn } from "@/lib/utils";
import { ConnectionResult } from "./connection-result";
import { MessagingTierSelect } from "./messaging-tier-select";
import { SaveConfirmDialog } from "./save-confirm-dialog";
import { WebhookSetup } from "./webhook-setup";

type Provider = SenderView["provider"];

interface Draft {
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
  messagingTier: MessagingTier | null;
}

const storedTier = (tier: string | null): MessagingTier | null => (isMessagingTier(tier) ? tier : null);

export function SenderSettingsForm({
  initialSender,
  webhookUrl,
  undeliverableTestNumber,
  pendingMessages,
}: {
  initialSender: SenderView;
  /** Messages queued or being sent by the current sender: what a switch would fail. */
  pendingMessages: number;
  webhookUrl: string;
  /** A sandbox number that simulates a failed delivery. */
  undeliverableTestNumber: string;
}) {
  const router = useRouter();
  const [sender, setSender] = useState(initialSender);
  const [provider, setProvider] = useState<Provider>(initialSender.provider);
  const [draft, setDraft] = useState<Draft>({
    phoneNumberId: initialSender.phoneNumberId ?? "",
    wabaId: initialSender.wabaId ?? "",
    accessToken: "",
    appSecret: "",
    verifyToken: "",
    messagingTier: storedTier(initialSender.messagingTier),
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);
  const [test, setTest] = useState<ConnectionTestResult | null>(null);
  /** The credentials the last test ran with: it only counts while they are still in the form. */
  const [testedFor, setTestedFor] = useState<string | null>(null);
  const [confirming, setConfirming] = useState<SaveConfirmation | null>(null);

  const [syncing, setSyncing] = useState(false);
  /** The settings routes act on this sender (its id changes with its provider or number). */
  const forSender = `?senderId=${encodeURIComponent(sender.id)}`;

  async function syncTemplates() {
    setSyncing(true);
    const result = await requestJson<{ total: number; approved: number; removed: number }>(`/api/templates/sync${forSender}`, { method: "POST", body: {} });
    setSyncing(false);
    if (!result.ok) {
      toast.error(result.problem.detail);
      return;
    }
    const { total, approved, removed } = result.data;
    toast.success(`Synced ${total} template${total === 1 ? "" : "s"} (${approved} approved${removed ? `, ${removed} removed in WhatsApp Manager` : ""}).`);
  }

  const set = (key: keyof Draft) => (event: React.ChangeEvent<HTMLInputElement>) => setDraft((d) => ({ ...d, [key]: event.target.value }));

  /** Field errors Save would get from the server, found before asking anything. */
  function clientErrors(): Record<string, string> {
    if (provider === "sandbox") return {};
    const found: Record<string, string> = {};
    const parsed = whatsappSenderSettingsSchema.safeParse({ provider, ...draft });
    if (!parsed.success) for (const issue of parsed.error.issues) found[String(issue.path[0])] ??= issue.message;
    if (!draft.accessToken.trim() && !sender.accessToken) found.accessToken ??= "Paste the access token of your system user.";
    return found;
  }

  function save(event: React.FormEvent) {
    event.preventDefault();
    const found = clientErrors();
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    const ask = saveConfirmation({
      current: sender,
      provider,
      phoneNumberId: draft.phoneNumberId,
      wabaId: draft.wabaId,
      accessToken: draft.accessToken,
      test: test && testedFor === connectionKey(draft) ? { ok: test.ok } : null,
      pendingMessages,
    });
    if (ask) setConfirming(ask);
    else void store();
  }

  async function store() {
    setConfirming(null);
    setSaving(true);
    setErrors({});
    const body = provider === "sandbox" ? { provider } : { provider, ...draft };
    const result = await requestJson<SenderView>(`/api/sender${forSender}`, { method: "PUT", body });
    setSaving(false);
    if (!result.ok) {
      setErrors(Object.fromEntries((result.problem.errors ?? []).map((e) => [e.path, e.message])));
      toast.error(result.problem.detail);
      return;
    }
    setSender(result.data);
    setDraft((d) => ({ ...d, accessToken: "", appSecret: "", verifyToken: "" }));
    // The typed token is gone from the form: a test stays valid for the stored credentials.
    setTestedFor((key) => (key === connectionKey(draft) ? connectionKey({ ...draft, accessToken: "" }) : null));
    toast.success(result.data.provider === "sandbox" ? "Using the sandbox sender" : "WhatsApp settings saved");
    // Another provider or number is another sender id: its page moves with it.
    if (result.data.id !== sender.id) router.replace(`/settings/whatsapp/${result.data.id}`);
    else router.refresh();
  }

  async function testConnection() {
    setTesting(true);
    setTest(null);
    setTestedFor(null);
    const key = connectionKey(draft);
    const result = await requestJson<ConnectionTestResult>(`/api/sender/test${forSender}`, {
      method: "POST",
      body: { provider: "whatsapp", ...draft },
    });
    setTesting(false);
    if (!result.ok) {
      setErrors(Object.fromEntries((result.problem.errors ?? []).map((e) => [e.path, e.message])));
      toast.error(result.problem.detail);
      return;
    }
    setErrors({});
    setTest(result.data);
    setTestedFor(key);
    if (result.data.ok) {
      const reported = result.data.messagingTier;
      if (reported) setDraft((d) => ({ ...d, messagingTier: storedTier(reported) }));
      router.refresh();
    }
  }

  const secretHint = (stored: string | null, what: string) => (stored ? `Saved (${stored}). Leave blank to keep it.` : `Paste the ${what}.`);

  return (
    <form method="post" onSubmit={save} className="grid gap-6" noValidate>
      <fieldset className="grid gap-3 sm:grid-cols-2">
        <legend className="mb-3 text-sm font-medium">Send messages through</legend>
        <ProviderOption
          value="sandbox"
          current={provider}
          onSelect={setProvider}
          icon={<FlaskConical aria-hidden />}
          title="Sandbox"
          description="Built in, no setup. Messages are simulated: they are logged and marked delivered, but never reach a phone."
        />
        <ProviderOption
          value="whatsapp"
          current={provider}
          onSelect={setProvider}
          icon={<Plug aria-hidden />}
          title="WhatsApp Cloud API"
          description="Send real messages from your WhatsApp Business number, using the credentials from Meta's developer dashboard."
        />
      </fieldset>

      {provider === "sandbox" ? (
        <div role="status" className="rounded-lg border border-sky-200 bg-sky-50 px-4 py-3 text-sm text-sky-900">
          <strong className="font-medium">Messages are simulated.</strong> Use the sandbox to build and test campaigns safely; demo templates are ready in the
          campaign builder. Send to <code className="font-mono">{undeliverableTestNumber}</code> to see how a failed delivery looks.
        </div>
      ) : (
        <Card>
          <CardHeader>
            <CardTitle className="text-base">WhatsApp Cloud API credentials</CardTitle>
            <CardDescription>
              Find these in Meta for Developers → your app → WhatsApp → API Setup. Secrets are encrypted and are never shown again after you save them.
            </CardDescription>
          </CardHeader>
          <CardContent className="grid gap-4 sm:grid-cols-2">
            <FormField id="phone-number-id" label="Phone number ID" error={errors.phoneNumberId} hint="A numeric ID from API Setup, shown under the number: not the phone number itself.">
              <Input {...fieldAria("phone-number-id", errors.phoneNumberId, true)} inputMode="numeric" value={draft.phoneNumberId} onChange={set("phoneNumberId")} />
            </FormField>
            <FormField id="waba-id" label="WhatsApp Business Account ID" error={errors.wabaId} hint="The numeric ID from API Setup, used to sync your message templates.">
              <Input {...fieldAria("waba-id", errors.wabaId, true)} inputMode="numeric" value={draft.wabaId} onChange={set("wabaId")} />
            </FormField>
            <FormField id="access-token" label="Access token" error={errors.accessToken} hint={secretHint(sender.accessToken, "permanent system-user token")} className="sm:col-span-2">
              <Input {...fieldAria("access-token", errors.accessToken, true)} type="password" autoComplete="off" value={draft.accessToken} onChange={set("accessToken")} />
            </FormField>
            <FormField id="app-secret" label="App secret" error={errors.appSecret} hint={secretHint(sender.appSecret, "app secret (verifies delivery webhooks)")} className="sm:col-span-2">
              <Input {...fieldAria("app-secret", errors.appSecret, true)} type="password" autoComplete="off" value={draft.appSecret} onChange={set("appSecret")} />
            </FormField>
            <MessagingTierSelect value={draft.messagingTier} onChange={(messagingTier) => setDraft((d) => ({ ...d, messagingTier }))} error={errors.messagingTier} />
            <WebhookSetup
              webhookUrl={webhookUrl}
              verifyToken={draft.verifyToken}
              storedVerifyToken={sender.verifyToken}
              error={errors.verifyToken}
              onVerifyTokenChange={(verifyToken) => setDraft((d) => ({ ...d, verifyToken }))}
            />
            {test && <ConnectionResult result={test} />}
          </CardContent>
          <CardFooter className="gap-2">
            <Button type="button" variant="outline" onClick={testConnection} disabled={testing || !draft.phoneNumberId}>
              {testing ? "Testing…" : "Test connection"}
            </Button>
            {sender.provider === "whatsapp" && (
              <Button type="button" variant="outline" onClick={syncTemplates} disabled={syncing}>
                {syncing ? "Syncing…" : "Sync templates"}
              </Button>
            )}
            {sender.provider === "whatsapp" && sender.displayPhoneNumber && (
              <span className="text-xs text-muted-foreground">
                Connected number: <strong className="font-medium text-foreground">{sender.displayPhoneNumber}</strong> · {sender.messagingTierLabel} ·{" "}
                {sender.throughputPerSecond} msg/s
              </span>
            )}
          </CardFooter>
        </Card>
      )}

      <div className="flex items-center gap-3">
        <Button type="submit" disabled={saving}>
          {saving ? "Saving…" : "Save settings"}
        </Button>
        <span className="text-xs text-muted-foreground">
          Currently sending through <Badge variant={sender.provider === "sandbox" ? "info" : "success"}>{sender.provider === "sandbox" ? "Sandbox" : "WhatsApp Cloud API"}</Badge>
        </span>
      </div>
      <SaveConfirmDialog confirmation={confirming} onConfirm={() => void store()} onCancel={() => setConfirming(null)} />
    </form>
  );
}

function ProviderOption({
  value,
  current,
  onSelect,
  icon,
  title,
  description,
}: {
  value: Provider;
  current: Provider;
  onSelect: (value: Provider) => void;
  icon: React.ReactNode;
  title: string;
  description: string;
}) {
  return (
    <label
      className={cn(
        "flex cursor-pointer gap-3 rounded-lg border p-4 has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring",
        current === value && "border-primary bg-accent/60",
      )}
    >
      <input type="radio" name="provider" value={value} checked={current === value} onChange={() => onSelect(value)} className="sr-only" />
      <span className="mt-0.5 text-primary [&_svg]:size-5">{icon}</span>
      <span className="grid gap-1">
        <span className="text-sm font-medium">{title}</span>
        <span className="text-xs text-muted-foreground">{description}</span>
      </span>
    </label>
  );
}
