"use client";

import { ListPlus, Sparkles } from "lucide-react";
import { Button } from "@/components/ui/button";
import { newTriggerField } from "@/lib/campaigns/schemas";
import { insertStep } from "@/lib/campaigns/journey-edit";
import { applyPreset, JOURNEY_PRESETS, type JourneyPreset } from "@/lib/campaigns/journey-presets";
import type { TemplateView } from "@/lib/templates/service";
import type { BuilderForm } from "../builder-parts";
import { formatDuration } from "./describe";
import type { JourneyStats } from "./use-journey-stats";

/**
 * Under a one-message campaign: turn it into a journey, its message becoming the first step, or start
 * from a preset (its trigger fields added to the mapping, a placeholder template on each send step).
 */
export function JourneyStart({ form, templates, onPlaceholders }: { form: BuilderForm; templates: TemplateView[]; onPlaceholders: (ids: ReadonlySet<string>) => void }) {
  function addSteps() {
    const { journey, id } = insertStep(null, { stepId: null, slot: { kind: "next" } }, "send");
    const templateId = form.getValues("templateId");
    const variables = form.getValues("messageConfig.variables") ?? [];
    const steps = journey.steps.map((s) =>
      s.id === id && s.type === "send" && templateId
        ? { ...s, templateId, messageConfig: { variables: variables.map((v) => ({ key: v.key, attribute: v.attribute ?? null, fallback: v.fallback ?? null })) } }
        : s,
    );
    onPlaceholders(new Set());
    form.setValue("journey", { ...journey, steps }, { shouldDirty: true });
  }

  function startFrom(preset: JourneyPreset) {
    const { journey, placeholders } = applyPreset(preset, templates);
    const fields = form.getValues("triggerConfig.fields") ?? [];
    const missing = preset.fields.filter((f) => !fields.some((row) => row.field === f.field));
    if (missing.length > 0) {
      form.setValue(
        "triggerConfig.fields",
        [...fields, ...missing.map((f) => ({ ...newTriggerField({ field: f.field, attribute: f.attribute, type: f.type }), required: f.required }))],
        { shouldDirty: true },
      );
    }
    onPlaceholders(new Set(placeholders));
    form.setValue("journey", journey, { shouldDirty: true });
  }

  return (
    <section aria-labelledby="journey-start-title" className="mt-4 grid gap-3 rounded-xl border border-dashed p-4">
      <div>
        <h2 id="journey-start-title" className="text-sm font-semibold">
          More than one message?
        </h2>
        <p className="text-xs text-muted-foreground">Add waits, branches and follow-ups after the trigger: the message above becomes the first step.</p>
      </div>
      <div className="flex flex-wrap gap-2">
        <Button type="button" variant="outline" onClick={addSteps}>
          <ListPlus aria-hidden /> Add steps after the trigger
        </Button>
      </div>
      <div className="grid gap-2">
        <h3 className="text-xs font-medium text-muted-foreground">Start from a preset</h3>
        <ul className="grid gap-2 sm:grid-cols-2">
          {JOURNEY_PRESETS.map((preset) => (
            <li key={preset.id} className="grid gap-2 rounded-lg border p-3">
              <p className="text-sm font-medium">{preset.label}</p>
              <p className="text-xs text-muted-foreground">{preset.description}</p>
              <Button type="button" size="sm" variant="secondary" className="justify-self-start" onClick={() => startFrom(preset)}>
                <Sparkles aria-hidden /> Use the {preset.label.toLowerCase()} preset
              </Button>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}

/** The journey's live totals (published runs). */
export function JourneyTotals({ totals }: { totals: JourneyStats["totals"] }) {
  const items: [string, string][] = [
    ["Entered", totals.entered.toLocaleString("en-US")],
    ["In progress", (totals.active + totals.waiting).toLocaleString("en-US")],
    ["Completed", totals.completed.toLocaleString("en-US")],
    ["Exited", totals.exited.toLocaleString("en-US")],
    ["Converted", totals.converted.toLocaleString("en-US")],
    ["Conversion rate", totals.conversionRate === null ? "—" : `${(totals.conversionRate * 100).toFixed(1)}%`],
    ["Median time to convert", totals.medianSecondsToConvert === null ? "—" : formatDuration(Math.round(totals.medianSecondsToConvert))],
  ];
  return (
    <dl role="group" className="grid grid-cols-2 gap-2 rounded-xl border bg-card p-3 text-sm sm:grid-cols-4 lg:grid-cols-7" aria-label="Journey totals">
      {items.map(([label, value]) => (
        <div key={label}>
          <dt className="text-xs text-muted-foreground">{label}</dt>
          <dd className="font-semibold tabular-nums">{value}</dd>
        </div>
      ))}
    </dl>
  );
}
