"use client";

import { ChevronDown, ShieldCheck, Sparkles } from "lucide-react";
import { useMemo, useState } from "react";
import { useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { DropdownMenu, DropdownMenuContent, DropdownMenuItem, DropdownMenuLabel, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { toast } from "@/components/ui/toaster";
import { usableTrigger } from "@/lib/campaigns/editor";
import { samplePayload } from "@/lib/campaigns/sample";
import { requestJson } from "@/lib/http/client";
import { SOURCE_KIND_LABELS, SOURCE_KINDS, type CampaignSource, type SourceKind } from "@/lib/sources/kinds";
import { findPreset, KIND_STEPS, SOURCE_PRESETS, type SourcePreset } from "@/lib/sources/presets";
import type { BuilderForm } from "../builder-parts";
import { NativeSelect } from "../native-select";
import { SourceSecret } from "./source-secret";
import { SignedCommand } from "./source-test-command";
import { TopicFilter } from "./topic-filter";
import { useCampaignSource } from "./use-campaign-source";


/** Fills the trigger mapping from a preset: the same form state the trigger node edits, saved with the campaign. */
function fillTrigger(form: BuilderForm, preset: SourcePreset) {
  const { setValue } = form;
  const options = { shouldDirty: true, shouldValidate: true, shouldTouch: true };
  const { trigger } = preset;
  setValue("triggerConfig.phoneField", trigger.phoneField, options);
  setValue("triggerConfig.phoneFallbacks", [...trigger.phoneFallbacks], options);
  setValue("triggerConfig.countryField", trigger.countryField, options);
  setValue(
    "triggerConfig.fields",
    trigger.fields.map((row) => ({ ...row, fallbacks: [...row.fallbacks] })),
    options,
  );
}

/** Step 0 of a trigger campaign: who calls the webhook and how the call proves it. */
export function SourceCard({ form, campaignId, editable }: { form: BuilderForm; campaignId: string; editable: boolean }) {
  const { source, error, loading, update } = useCampaignSource(campaignId);
  const [presetId, setPresetId] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const preset = presetId ? findPreset(presetId) : undefined;
  const trigger = useWatch({ control: form.control, name: "triggerConfig" });
  const example = useMemo(() => samplePayload(usableTrigger(trigger)), [trigger]);
  const busy = !editable || saving || !source;

  async function save(next: { kind: SourceKind; topics: string[] }): Promise<boolean> {
    setSaving(true);
    try {
      const result = await requestJson<CampaignSource>(`/api/v1/campaigns/${campaignId}/source`, { method: "PUT", body: next });
      if (!result.ok) {
        toast.error(result.problem.errors?.[0]?.message ?? result.problem.detail);
        return false;
      }
      update(result.data);
      return true;
    } finally {
      setSaving(false);
    }
  }

  async function applyPreset(chosen: SourcePreset) {
    fillTrigger(form, chosen);
    setPresetId(chosen.id);
    if (await save({ kind: chosen.kind, topics: chosen.topics })) {
      toast.success(`${chosen.label}: source set and mapping filled in. Save the campaign to keep the mapping.`);
    }
  }

  const kind = source?.kind ?? "api_key";
  const steps = preset && preset.kind === kind ? preset.steps : KIND_STEPS[kind];
  const shop = SOURCE_KIND_LABELS[kind];

  return (
    <Card className="mb-4 gap-4" role="group" aria-labelledby="source-card-title">
      <CardHeader>
        <div className="flex items-start gap-3">
          <span className="flex size-8 shrink-0 items-center justify-center rounded-full bg-primary/10 text-primary">
            <ShieldCheck className="size-4" aria-hidden />
          </span>
          <div>
            <CardTitle id="source-card-title">Source</CardTitle>
            <CardDescription className="mt-1">
              Who calls this webhook. Shops such as Shopify, WooCommerce and Stripe send no API key: they sign each call with a secret instead.
            </CardDescription>
          </div>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        {error && (
          <p role="alert" className="text-sm text-destructive">
            Could not load the source: {error}
          </p>
        )}
        <div className="grid items-end gap-3 sm:grid-cols-[minmax(0,1fr)_auto]">
          <div className="grid gap-1.5">
            <label htmlFor="source-kind" className="text-xs font-medium">
              Who calls this webhook
            </label>
            <NativeSelect
              id="source-kind"
              value={kind}
              disabled={busy}
              aria-busy={loading || saving}
              onChange={(event) => {
                setPresetId(null);
                void save({ kind: event.target.value as SourceKind, topics: [] });
              }}
            >
              {SOURCE_KINDS.map((value) => (
                <option key={value} value={value}>
                  {SOURCE_KIND_LABELS[value]}
                </option>
              ))}
            </NativeSelect>
          </div>
          <DropdownMenu>
            <DropdownMenuTrigger asChild>
              <Button type="button" variant="outline" disabled={busy}>
                <Sparkles aria-hidden /> Start from a preset <ChevronDown aria-hidden />
              </Button>
            </DropdownMenuTrigger>
            <DropdownMenuContent align="end">
              <DropdownMenuLabel className="text-xs text-muted-foreground">Sets the source, its topic and the field mapping</DropdownMenuLabel>
              {SOURCE_PRESETS.map((option) => (
                <DropdownMenuItem key={option.id} onSelect={() => void applyPreset(option)}>
                  {option.label}
                </DropdownMenuItem>
              ))}
            </DropdownMenuContent>
          </DropdownMenu>
        </div>

        {source && kind !== "api_key" && (
          <>
            <TopicFilter kind={kind} topics={source.topics} disabled={busy} onChange={(topics) => void save({ kind, topics })} />
            <SourceSecret campaignId={campaignId} source={source} disabled={!editable} onChange={update} />
          </>
        )}

        <details className="group rounded-lg border" open={preset !== undefined || undefined}>
          <summary className="cursor-pointer px-3 py-2 text-sm font-medium select-none">
            {kind === "api_key" ? "How your system calls it" : `Set it up in ${shop}`}
          </summary>
          <ol className="grid list-decimal gap-1.5 border-t py-3 pr-3 pl-8 text-sm" aria-label={`Steps in ${shop}`}>
            {steps.map((step) => (
              <li key={step}>{step}</li>
            ))}
          </ol>
        </details>

        {source && kind !== "api_key" && (
          <details className="group rounded-lg border">
            <summary className="cursor-pointer px-3 py-2 text-sm font-medium select-none">Test it from a terminal</summary>
            <div className="border-t p-3">
              <SignedCommand kind={kind} url={source.url} topics={source.topics} example={example} />
            </div>
          </details>
        )}
      </CardContent>
    </Card>
  );
}
