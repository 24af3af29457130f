"use client";

import { ClipboardPaste, KeyRound, RefreshCw } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormError } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { Label } from "@/components/ui/label";
import { LocalTime } from "@/components/ui/local-time";
import { RevealOnceDialog } from "@/components/ui/reveal-once-dialog";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";
import { SOURCE_KIND_LABELS, type CampaignSource } from "@/lib/sources/kinds";
import { NativeSelect } from "../native-select";

const OVERLAPS = [
  { hours: 0, label: "Stop the old secret now" },
  { hours: 1, label: "Keep the old secret for 1 hour" },
  { hours: 24, label: "Keep the old secret for 24 hours" },
  { hours: 72, label: "Keep the old secret for 72 hours" },
] as const;

type Mode = "generate" | "paste";

/** The source's signing secret: set, pasted from the shop, or rolled with a window where both work. */
export function SourceSecret({
  campaignId,
  source,
  disabled,
  onChange,
}: {
  campaignId: string;
  source: CampaignSource;
  disabled?: boolean;
  onChange: (source: CampaignSource) => void;
}) {
  const [mode, setMode] = useState<Mode | null>(null);
  const [revealed, setRevealed] = useState<string | null>(null);
  const [closing, setClosing] = useState(false);
  const { secret } = source;
  const shop = SOURCE_KIND_LABELS[source.kind];

  return (
    <div className="grid gap-2 rounded-lg border p-3">
      <p className="text-xs font-medium">Signing secret</p>
      {secret.set ? (
        <p className="text-sm" data-testid="source-secret-status">
          Set · ends in <code className="font-mono">{secret.last4}</code>
          {secret.createdAt && (
            <>
              {" "}
              · since <LocalTime iso={secret.createdAt} />
            </>
          )}
          {secret.previousExpiresAt && (
            <span className="text-muted-foreground">
              {" "}
              · the previous secret works until <LocalTime iso={secret.previousExpiresAt} />
            </span>
          )}
        </p>
      ) : (
        <p className="text-sm text-muted-foreground" data-testid="source-secret-status">
          No secret yet: calls from {shop} are refused (401) until one is set.
        </p>
      )}
      <div className="flex flex-wrap gap-2">
        {secret.set ? (
          <Button type="button" variant="outline" size="sm" disabled={disabled} onClick={() => setMode("generate")}>
            <RefreshCw aria-hidden /> Roll secret
          </Button>
        ) : (
          <Button type="button" variant="outline" size="sm" disabled={disabled} onClick={() => setMode("generate")}>
            <KeyRound aria-hidden /> Generate secret
          </Button>
        )}
        <Button type="button" variant="outline" size="sm" disabled={disabled} onClick={() => setMode("paste")}>
          <ClipboardPaste aria-hidden /> Paste the shop&apos;s secret
        </Button>
      </div>
      <SecretDialog
        key={mode ?? "closed"}
        campaignId={campaignId}
        mode={mode}
        rolling={secret.set}
        onOpenChange={(open) => !open && setMode(null)}
        onSaved={(result, generated) => {
          onChange(result.source);
          setMode(null);
          if (generated) setRevealed(result.secret);
          else toast.success(`Secret saved (ends in ${result.source.secret.last4 ?? "…"}).`);
        }}
      />
      <RevealOnceDialog
        secret={revealed}
        open={revealed !== null && !closing}
        onDone={() => setClosing(true)}
        onClosed={() => {
          setClosing(false);
          setRevealed(null);
        }}
        texts={{
          title: "Copy the signing secret",
          description: `Paste it where ${shop} asks for the webhook's secret. Sendstream checks every call's signature with it.`,
          label: "Signing secret",
          warning: "You will not see it again. If you lose it, roll a new secret here and paste that one in the shop.",
          confirmTitle: "Have you copied the secret?",
          confirmDescription: "It will not be shown again. Without it the shop's calls cannot be signed until you roll a new secret.",
        }}
      />
    </div>
  );
}

function SecretDialog({
  campaignId,
  mode,
  rolling,
  onOpenChange,
  onSaved,
}: {
  campaignId: string;
  mode: Mode | null;
  rolling: boolean;
  onOpenChange: (open: boolean) => void;
  onSaved: (result: { secret: string; source: CampaignSource }, generated: boolean) => void;
}) {
  const [pasted, setPasted] = useState("");
  const [overlap, setOverlap] = useState(24);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function submit() {
    if (mode === "paste" && !pasted.trim()) {
      setProblem("Paste the secret the shop shows you.");
      return;
    }
    setBusy(true);
    try {
      const result = await requestJson<{ secret: string; source: CampaignSource }>(`/api/v1/campaigns/${campaignId}/source/secret`, {
        method: "POST",
        body: { ...(mode === "paste" ? { secret: pasted.trim() } : {}), ...(rolling ? { overlapHours: overlap } : {}) },
      });
      if (!result.ok) {
        setProblem(result.problem.errors?.[0]?.message ?? result.problem.detail);
        return;
      }
      setPasted("");
      setProblem(null);
      onSaved(result.data, mode === "generate");
    } finally {
      setBusy(false);
    }
  }

  const title = mode === "paste" ? "Paste the shop's secret" : rolling ? "Roll the signing secret" : "Generate a signing secret";
  return (
    <Dialog open={mode !== null} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-lg">
        <form
          method="post"
          className="grid gap-4"
          onSubmit={(event) => {
            event.preventDefault();
            event.stopPropagation();
            void submit();
          }}
        >
          <DialogHeader>
            <DialogTitle>{title}</DialogTitle>
            <DialogDescription>
              {mode === "paste"
                ? "The secret the shop signs its webhooks with. It is stored encrypted and never shown again."
                : "Sendstream makes a new random secret and shows it once, for you to paste in the shop."}
            </DialogDescription>
          </DialogHeader>
          {mode === "paste" && (
            <div className="grid gap-2">
              <Label htmlFor="pasted-secret">Shop&apos;s signing secret</Label>
              <Input
                id="pasted-secret"
                type="password"
                autoComplete="off"
                spellCheck={false}
                className="font-mono"
                value={pasted}
                aria-invalid={problem ? true : undefined}
                onChange={(event) => setPasted(event.target.value)}
              />
            </div>
          )}
          {rolling && (
            <div className="grid gap-2">
              <Label htmlFor="secret-overlap">The current secret</Label>
              <NativeSelect id="secret-overlap" value={overlap} onChange={(event) => setOverlap(Number(event.target.value))}>
                {OVERLAPS.map((option) => (
                  <option key={option.hours} value={option.hours}>
                    {option.label}
                  </option>
                ))}
              </NativeSelect>
              <p className="text-xs text-muted-foreground">While both work, calls signed with either are accepted: time to update the shop.</p>
            </div>
          )}
          <FormError>{problem}</FormError>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy ? "Saving…" : mode === "paste" ? "Save secret" : rolling ? "Roll secret" : "Generate secret"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
