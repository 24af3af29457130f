"use client";

import { Route, Undo2 } from "lucide-react";
import { useEffect, useState } from "react";
import { useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { attributeOptions } from "@/lib/campaigns/editor";
import type { Journey, JourneyStep } from "@/lib/campaigns/journey";
import { deleteStep, insertStep, replaceStep, type EdgeRef } from "@/lib/campaigns/journey-edit";
import { journeyIssues, serverIssues, SETTINGS, type NodeIssue } from "@/lib/campaigns/journey-issues";
import type { FieldError } from "@/lib/http/errors";
import { requestJson } from "@/lib/http/client";
import type { TemplateView } from "@/lib/templates/service";
import { CheckList, type BuilderForm } from "../builder-parts";
import type { SenderOption } from "../campaign-sender-select";
import type { JourneyEnv } from "./env";
import { JourneyFlow } from "./journey-flow";
import { JourneySettings } from "./journey-settings";
import { JourneyTotals } from "./journey-start";
import { useJourneyStats } from "./use-journey-stats";

function merge(...maps: Map<string, NodeIssue[]>[]): Map<string, NodeIssue[]> {
  const out = new Map<string, NodeIssue[]>();
  for (const map of maps) for (const [key, list] of map) out.set(key, [...(out.get(key) ?? []), ...list]);
  return out;
}

/** Lists and campaigns for the editors' pickers, loaded once. */
function useWorkspaceOptions() {
  const [options, setOptions] = useState<{ lists: JourneyEnv["lists"]; campaigns: JourneyEnv["campaigns"] }>({ lists: [], campaigns: [] });
  useEffect(() => {
    let live = true;
    void Promise.all([requestJson<{ data: JourneyEnv["lists"] }>("/api/v1/lists?limit=100"), requestJson<{ data: JourneyEnv["campaigns"] }>("/api/v1/campaigns?limit=100")]).then(([lists, campaigns]) => {
      if (live) setOptions({ lists: lists.ok ? lists.data.data : [], campaigns: campaigns.ok ? campaigns.data.data : [] });
    });
    return () => {
      live = false;
    };
  }, []);
  return options;
}

export interface JourneySectionProps {
  form: BuilderForm;
  journey: Journey;
  campaignId: string;
  deployed: boolean;
  templates: TemplateView[];
  knownAttributes: string[];
  senders: SenderOption[];
  /** The API's answers (save 422s and deploy checks); those under `journey` are shown on their nodes. */
  checks: FieldError[];
  placeholders: ReadonlySet<string>;
  onPlaceholdersChange: (ids: ReadonlySet<string>) => void;
  editable: boolean;
}

/** A journey campaign's steps: the flow under the trigger node, its settings, and its live totals. */
export function JourneySection({ form, journey, campaignId, deployed, templates, knownAttributes, senders, checks, placeholders, onPlaceholdersChange, editable }: JourneySectionProps) {
  const trigger = useWatch({ control: form.control, name: "triggerConfig" });
  const options = useWorkspaceOptions();
  const stats = useJourneyStats(campaignId, deployed);
  const mappedFields = (trigger?.fields ?? []).map((f) => f.field).filter(Boolean);
  const env: JourneyEnv = { campaignId, templates, attributes: attributeOptions(trigger, knownAttributes), mappedFields, senders, ...options, editable };
  const issues = merge(journeyIssues(journey, { mappedFields, campaignId, templates }), serverIssues(journey, checks));
  const statsByStep = new Map((stats?.steps ?? []).map((s) => [s.stepId, s]));
  const set = (next: Journey | null) => form.setValue("journey", next, { shouldDirty: true });

  const actions = {
    add: (edge: EdgeRef, type: JourneyStep["type"]) => set(insertStep(journey, edge, type).journey),
    change: (id: string, step: JourneyStep) => {
      const before = journey.steps.find((s) => s.id === id);
      if (before?.type === "send" && step.type === "send" && before.templateId !== step.templateId && placeholders.has(id)) {
        onPlaceholdersChange(new Set([...placeholders].filter((p) => p !== id)));
      }
      set(replaceStep(journey, id, step));
    },
    remove: (id: string) => set(deleteStep(journey, id).journey),
  };

  return (
    <section aria-labelledby="journey-title" className="grid gap-3">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <h2 id="journey-title" className="flex items-center gap-2 text-base font-semibold">
          <Route className="size-4 text-primary" aria-hidden /> Steps after the trigger
        </h2>
        {editable && (
          <Button type="button" variant="ghost" size="sm" onClick={() => set(null)}>
            <Undo2 aria-hidden /> Back to one message
          </Button>
        )}
      </div>
      {stats && <JourneyTotals totals={stats.totals} />}
      <CheckList checks={checks.filter((c) => c.path.startsWith("message"))} />
      <JourneyFlow journey={journey} env={env} issues={issues} stats={statsByStep} placeholders={placeholders} actions={actions} />
      <JourneySettings journey={journey} env={env} issues={issues.get(SETTINGS) ?? []} onChange={set} />
    </section>
  );
}
