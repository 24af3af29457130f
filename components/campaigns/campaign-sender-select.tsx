"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Label } from "@/components/ui/label";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";
import type { ChannelName } from "@/lib/channels/types";
import type { TemplateView } from "@/lib/templates/service";

/** A sender a campaign can choose, as the builders list it. */
export interface SenderOption {
  id: string;
  name: string;
  provider: ChannelName;
  /** The display number, "Simulated" for the sandbox. */
  number: string;
  isDefault: boolean;
}

/**
 * Which number the campaign sends through (the workspace's default is preselected on new
 * campaigns). Changing it saves at once; the builder then lists that sender's templates.
 */
export function CampaignSenderSelect({
  senders,
  value,
  disabled,
  busy,
  onChange,
}: {
  senders: SenderOption[];
  value: string | null;
  disabled?: boolean;
  busy?: boolean;
  onChange: (senderId: string) => void;
}) {
  const current = value ?? senders.find((s) => s.isDefault)?.id ?? "";
  return (
    <div className="grid gap-2 rounded-xl border bg-card p-4">
      <Label htmlFor="campaign-sender">Sender</Label>
      <select
        id="campaign-sender"
        value={current}
        disabled={disabled || busy}
        aria-describedby="campaign-sender-hint"
        onChange={(event) => onChange(event.target.value)}
        className="h-9 rounded-md border border-input bg-transparent px-3 text-sm disabled:opacity-60"
      >
        {senders.map((sender) => (
          <option key={sender.id} value={sender.id}>
            {sender.name} · {sender.number}
            {sender.isDefault ? " (default)" : ""}
          </option>
        ))}
      </select>
      <p id="campaign-sender-hint" className="text-xs text-muted-foreground">
        {busy ? "Switching sender…" : "The number messages go out from. Messages already queued keep theirs; templates are the sender's business account's."}
      </p>
    </div>
  );
}

/**
 * Switches a builder's campaign to another sender: saves pending edits first, then the sender (at
 * the version on screen), then loads that sender's templates.
 */
export function useSenderSwitch<C>(options: {
  campaignId: string;
  save: () => Promise<boolean>;
  /** The version on screen, for optimistic concurrency; undefined skips the check. */
  version: () => number | undefined;
  onSaved: (campaign: C) => void;
  onTemplates: (templates: TemplateView[]) => void;
}) {
  const router = useRouter();
  const [switching, setSwitching] = useState(false);
  async function switchTo(senderId: string) {
    setSwitching(true);
    try {
      if (!(await options.save())) return;
      const result = await requestJson<C>(`/api/v1/campaigns/${options.campaignId}`, { method: "PATCH", body: { senderId, version: options.version() } });
      if (!result.ok) return void toast.error(result.problem.detail);
      options.onSaved(result.data);
      const list = await requestJson<{ data: TemplateView[] }>(`/api/v1/templates?senderId=${encodeURIComponent(senderId)}`);
      if (list.ok) options.onTemplates(list.data.data);
      router.refresh();
    } finally {
      setSwitching(false);
    }
  }
  return { switching, switchTo };
}
