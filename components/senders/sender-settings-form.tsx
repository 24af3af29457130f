"use client";

import { CheckCircle2, FlaskConical, Plug, XCircle } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField, fieldAria } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";
import type { ConnectionTestResult, SenderView } from "@/lib/senders/service";
import { cn } from "@/lib/utils";

type Provider = SenderView["provider"];

interface Draft {
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
  appSecret: string;
  verifyToken: string;
}

export function SenderSettingsForm({
  initialSender,
  webhookUrl,
  undeliverableTestNumber,
}: {
  initialSender: SenderView;
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
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [saving, setSaving] = useState(false);
  const [testing, setTesting] = useState(false);
  const [test, setTest] = useState<ConnectionTestResult | null>(null);

  const [syncing, setSyncing] = useState(false);

  async function syncTemplates() {
    setSyncing(true);
    const result = await requestJson<{ total: number; approved: number; removed: number }>("/api/templates/sync", { method: "POST", body: {} });
    setSyncing(false);
    if (!result.ok) {
      toast.error(result.problem.detail);
      return;
    }
    const { total, approved, removed } = result.data;
    toast.success(`Synced ${total} template${total === 1 ? "" : "s"} (${approved} approved${removed ? `, ${removed} removed in WhatsApp Manager` : ""}).`);
  }

  const set = (key: keyof Draft) => (event: React.ChangeEvent<HTMLInputElement>) => setDraft((d) => ({ ...d, [key]: event.target.value }));

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setSaving(true);
    setErrors({});
    const body = provider === "sandbox" ? { provider } : { provider, ...draft };
    const result = await requestJson<SenderView>("/api/sender", { method: "PUT", body });
    setSaving(false);
    if (!result.ok) {
      setErrors(Object.fromEntries((result.problem.errors ?? []).map((e) => [e.path, e.message])));
      toast.error(result.problem.detail);
      return;
    }
    setSender(result.data);
    setDraft((d) => ({ ...d, accessToken: "", appSecret: "", verifyToken: "" }));
    toast.success(result.data.provider === "sandbox" ? "Using the sandbox sender" : "WhatsApp settings saved");
    router.refresh();
  }

  async function testConnection() {
    setTesting(true);
    setTest(null);
    const result = await requestJson<ConnectionTestResult>("/api/sender/test", {
      method: "POST",
      body: { phoneNumberId: draft.phoneNumberId, accessToken: draft.accessToken },
    });
    setTesting(false);
    if (!result.ok) {
      setErrors(Object.fromEntries((result.problem.errors ?? []).map((e) => [e.path, e.message])));
      toast.error(result.problem.detail);
      return;
    }
    setTest(result.data);
    if (result.data.ok) router.refresh();
  }

  const secretHint = (stored: string | null, what: string) => (stored ? `Saved (${stored}). Leave blank to keep it.` : `Paste the ${what}.`);

  return (
    <form onSubmit={save} className="grid gap-6" noValidate>
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
            <FormField id="phone-number-id" label="Phone number ID" error={errors.phoneNumberId} hint="Not the phone number itself: the numeric ID shown under it.">
              <Input {...fieldAria("phone-number-id", errors.phoneNumberId, true)} inputMode="numeric" value={draft.phoneNumberId} onChange={set("phoneNumberId")} />
            </FormField>
            <FormField id="waba-id" label="WhatsApp Business Account ID" error={errors.wabaId} hint="Used to sync your message templates.">
              <Input {...fieldAria("waba-id", errors.wabaId, true)} inputMode="numeric" value={draft.wabaId} onChange={set("wabaId")} />
            </FormField>
            <FormField id="access-token" label="Access token" error={errors.accessToken} hint={secretHint(sender.accessToken, "permanent system-user token")} className="sm:col-span-2">
              <Input {...fieldAria("access-token", errors.accessToken, true)} type="password" autoComplete="off" value={draft.accessToken} onChange={set("accessToken")} />
            </FormField>
            <FormField id="app-secret" label="App secret" error={errors.appSecret} hint={secretHint(sender.appSecret, "app secret (verifies delivery webhooks)")}>
              <Input {...fieldAria("app-secret", errors.appSecret, true)} type="password" autoComplete="off" value={draft.appSecret} onChange={set("appSecret")} />
            </FormField>
            <FormField id="verify-token" label="Webhook verify token" error={errors.verifyToken} hint={secretHint(sender.verifyToken, "verify token you enter in Meta's webhook settings")}>
              <Input {...fieldAria("verify-token", errors.verifyToken, true)} type="password" autoComplete="off" value={draft.verifyToken} onChange={set("verifyToken")} />
            </FormField>
            <div className="grid gap-1 sm:col-span-2">
              <p className="text-xs font-medium text-muted-foreground">Delivery webhook URL (paste it in Meta&apos;s webhook settings)</p>
              <code className="truncate rounded-md border bg-muted/50 px-2.5 py-1.5 font-mono text-xs">{webhookUrl}</code>
            </div>
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

function ConnectionResult({ result }: { result: ConnectionTestResult }) {
  if (result.ok) {
    return (
      <div role="status" className="flex gap-2.5 rounded-lg border border-emerald-200 bg-emerald-50 p-3 text-sm text-emerald-900 sm:col-span-2">
        <CheckCircle2 className="mt-0.5 size-4 shrink-0" aria-hidden />
        <div>
          <p className="font-medium">Connected{result.verifiedName ? ` to ${result.verifiedName}` : ""}</p>
          <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 gap-y-0.5 text-xs">
            <dt>Display number</dt>
            <dd>{result.displayPhoneNumber ?? "—"}</dd>
            <dt>Throughput</dt>
            <dd>
              {result.throughputPerSecond} messages / second{result.throughputLevel ? ` (${result.throughputLevel})` : ""}
            </dd>
            <dt>Messaging tier</dt>
            <dd>{result.messagingTierLabel}</dd>
            {result.qualityRating && (
              <>
                <dt>Quality</dt>
                <dd>{result.qualityRating}</dd>
              </>
            )}
          </dl>
        </div>
      </div>
    );
  }
  const { error } = result;
  return (
    <div role="alert" className="flex gap-2.5 rounded-lg border border-destructive/30 bg-destructive/5 p-3 text-sm text-destructive sm:col-span-2">
      <XCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
      <div>
        <p className="font-medium">WhatsApp refused the connection</p>
        <p className="mt-0.5 font-mono text-xs break-words">
          {error.message}
          {error.code !== null && ` (code ${error.code}${error.subcode ? `, subcode ${error.subcode}` : ""})`}
          {error.httpStatus !== null && ` · HTTP ${error.httpStatus}`}
        </p>
        {error.details && error.details !== error.message && <p className="mt-0.5 text-xs">{error.details}</p>}
      </div>
    </div>
  );
}
