"use client";

import { Loader2, Plus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { fieldAria, FormError, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";
import type { ChannelName } from "@/lib/channels/types";
import type { SenderResource } from "@/lib/senders/collection";

interface Draft {
  provider: ChannelName;
  name: string;
  phoneNumberId: string;
  wabaId: string;
  accessToken: string;
  isDefault: boolean;
}

const EMPTY: Draft = { provider: "whatsapp", name: "", phoneNumberId: "", wabaId: "", accessToken: "", isDefault: false };

/** Adds a WhatsApp number (or another sandbox), then opens its settings to test it and set up webhooks. */
export function AddSenderDialog() {
  const router = useRouter();
  const [open, setOpen] = useState(false);
  const [draft, setDraft] = useState<Draft>(EMPTY);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [formError, setFormError] = useState<string>();
  const [pending, setPending] = useState(false);

  function changeOpen(next: boolean) {
    if (pending) return;
    setOpen(next);
    if (!next) {
      setDraft(EMPTY);
      setErrors({});
      setFormError(undefined);
    }
  }

  const set = (key: "name" | "phoneNumberId" | "wabaId" | "accessToken") => (event: React.ChangeEvent<HTMLInputElement>) =>
    setDraft((d) => ({ ...d, [key]: event.target.value }));

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setPending(true);
    setErrors({});
    setFormError(undefined);
    const name = draft.name.trim() || undefined;
    const body =
      draft.provider === "sandbox"
        ? { provider: "sandbox", name, isDefault: draft.isDefault }
        : { provider: "whatsapp", name, phoneNumberId: draft.phoneNumberId, wabaId: draft.wabaId, accessToken: draft.accessToken, isDefault: draft.isDefault };
    const result = await requestJson<SenderResource>("/api/v1/senders", { method: "POST", body });
    setPending(false);
    if (!result.ok) {
      const fields = Object.fromEntries((result.problem.errors ?? []).map((e) => [e.path, e.message]));
      setErrors(fields);
      if (Object.keys(fields).length === 0) setFormError(result.problem.detail);
      return;
    }
    setOpen(false);
    setDraft(EMPTY);
    toast.success(`“${result.data.name}” added`);
    router.push(`/settings/whatsapp/${result.data.id}`);
  }

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden />
          Add sender
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form method="post" onSubmit={submit} noValidate className="grid gap-5">
          <DialogHeader>
            <DialogTitle>Add sender</DialogTitle>
            <DialogDescription>
              A WhatsApp number (a brand, a country, a test number) or another sandbox. Numbers of one WhatsApp Business Account share its daily messaging
              limit and its templates.
            </DialogDescription>
          </DialogHeader>
          <FormError>{formError}</FormError>
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">Provider</legend>
            {(
              [
                ["whatsapp", "WhatsApp Cloud API", "Real messages from a WhatsApp Business number."],
                ["sandbox", "Sandbox", "Simulated messages that never reach a phone."],
              ] as const
            ).map(([value, title, description]) => (
              <label key={value} className="flex items-start gap-2 text-sm">
                <input
                  type="radio"
                  name="add-sender-provider"
                  value={value}
                  checked={draft.provider === value}
                  onChange={() => setDraft((d) => ({ ...d, provider: value }))}
                  className="mt-0.5"
                />
                <span>
                  {title}
                  <span className="block text-xs text-muted-foreground">{description}</span>
                </span>
              </label>
            ))}
          </fieldset>
          <FormField id="add-sender-name" label="Name" error={errors.name} hint="For example “Brand FR” or “Test number”.">
            <Input autoComplete="off" {...fieldAria("add-sender-name", errors.name, true)} value={draft.name} onChange={set("name")} />
          </FormField>
          {draft.provider === "whatsapp" && (
            <div className="grid gap-4 sm:grid-cols-2">
              <FormField id="add-sender-phone-number-id" label="Phone number ID" error={errors.phoneNumberId}>
                <Input inputMode="numeric" {...fieldAria("add-sender-phone-number-id", errors.phoneNumberId)} value={draft.phoneNumberId} onChange={set("phoneNumberId")} />
              </FormField>
              <FormField id="add-sender-waba-id" label="WhatsApp Business Account ID" error={errors.wabaId}>
                <Input inputMode="numeric" {...fieldAria("add-sender-waba-id", errors.wabaId)} value={draft.wabaId} onChange={set("wabaId")} />
              </FormField>
              <FormField id="add-sender-access-token" label="Access token" error={errors.accessToken} className="sm:col-span-2">
                <Input type="password" autoComplete="off" {...fieldAria("add-sender-access-token", errors.accessToken)} value={draft.accessToken} onChange={set("accessToken")} />
              </FormField>
            </div>
          )}
          <label className="flex items-center gap-2 text-sm">
            <input type="checkbox" checked={draft.isDefault} onChange={(event) => setDraft((d) => ({ ...d, isDefault: event.target.checked }))} />
            Make it the default sender (campaigns that name no sender use it)
          </label>
          <DialogFooter>
            <Button type="submit" disabled={pending}>
              {pending && <Loader2 className="animate-spin" aria-hidden />}
              Add sender
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
