"use client";

import { AlertCircle, Plus, Trash2 } from "lucide-react";
import { Button } from "@/components/ui/button";
import { Input } from "@/components/ui/input";
import { MAX_EXIT_EVENTS, REENTRY_RULES, type ExternalEvent, type Journey, type JourneyGoal } from "@/lib/campaigns/journey";
import type { NodeIssue } from "@/lib/campaigns/journey-issues";
import { NativeSelect } from "../native-select";
import type { JourneyEnv } from "./env";
import { Row } from "./fields";
import { ExternalEventFields } from "./step-editor-wait";

const REENTRY_LABELS: Record<(typeof REENTRY_RULES)[number], string> = {
  once: "Once ever",
  once_per_period: "At most once per period",
  every_time: "Every time it is triggered",
  if_not_active: "Only when not already in it",
};

const GOAL_DEFAULTS: Record<JourneyGoal["kind"], JourneyGoal> = {
  event: { kind: "event", name: "" },
  campaign: { kind: "campaign", campaignId: "" },
  attribute: { kind: "attribute", attribute: "", value: null },
};

/** The journey as a whole: what ends a run (exit events), what else starts one, who may enter again, and what counts as converted. */
export function JourneySettings({ journey, env, issues, onChange }: { journey: Journey; env: JourneyEnv; issues: NodeIssue[]; onChange: (journey: Journey) => void }) {
  const setExit = (index: number, event: ExternalEvent) => onChange({ ...journey, exitEvents: journey.exitEvents.map((e, i) => (i === index ? event : e)) });
  const goal = journey.goal;
  return (
    <section aria-labelledby="journey-settings-title" className="grid gap-5 rounded-xl border bg-card p-4">
      <h3 id="journey-settings-title" className="text-sm font-semibold">
        Exit, entry and goal
      </h3>
      <fieldset className="grid gap-2">
        <legend className="mb-1 text-sm font-medium">Exit events</legend>
        <p className="text-xs text-muted-foreground">Any of these for the contact ends their run at once: nothing more is sent.</p>
        {journey.exitEvents.map((event, index) => (
          <div key={index} className="grid items-end gap-2 rounded-lg border p-2 sm:grid-cols-[12rem_minmax(0,1fr)_auto]">
            <Row label={`Exit ${index + 1}: kind`} htmlFor={`exit-${index}-kind`}>
              <NativeSelect id={`exit-${index}-kind`} value={event.kind} onChange={(e) => setExit(index, e.target.value === "event" ? { kind: "event", name: "" } : { kind: "campaign", campaignId: "" })}>
                <option value="event">An event (API)</option>
                <option value="campaign">A trigger of another campaign</option>
              </NativeSelect>
            </Row>
            <ExternalEventFields id={`exit-${index}`} event={event} env={env} onChange={(next) => setExit(index, next)} />
            <Button type="button" variant="ghost" size="icon" aria-label={`Remove exit ${index + 1}`} onClick={() => onChange({ ...journey, exitEvents: journey.exitEvents.filter((_, i) => i !== index) })}>
              <Trash2 aria-hidden />
            </Button>
          </div>
        ))}
        {journey.exitEvents.length < MAX_EXIT_EVENTS && (
          <Button type="button" variant="outline" size="sm" className="justify-self-start" onClick={() => onChange({ ...journey, exitEvents: [...journey.exitEvents, { kind: "event", name: "" }] })}>
            <Plus aria-hidden /> Add an exit event
          </Button>
        )}
      </fieldset>
      <Row label="Entry events" htmlFor="journey-entry-events" hint="Event names (comma separated) that also start a run, besides this campaign's trigger.">
        <Input
          id="journey-entry-events"
          placeholder="e.g. checkout_started"
          defaultValue={journey.entryEvents.join(", ")}
          onBlur={(e) => onChange({ ...journey, entryEvents: e.target.value.split(",").map((s) => s.trim()).filter(Boolean) })}
        />
      </Row>
      <div className="grid gap-3 sm:grid-cols-2">
        <Row label="Re-entry" htmlFor="journey-reentry">
          <NativeSelect
            id="journey-reentry"
            value={journey.reentry.rule}
            onChange={(e) => {
              const rule = e.target.value as Journey["reentry"]["rule"];
              onChange({ ...journey, reentry: { rule, periodDays: rule === "once_per_period" ? (journey.reentry.periodDays ?? 7) : null } });
            }}
          >
            {REENTRY_RULES.map((rule) => (
              <option key={rule} value={rule}>
                {REENTRY_LABELS[rule]}
              </option>
            ))}
          </NativeSelect>
        </Row>
        {journey.reentry.rule === "once_per_period" && (
          <Row label="Period (days)" htmlFor="journey-period">
            <Input id="journey-period" type="number" min={1} max={365} value={journey.reentry.periodDays ?? ""} onChange={(e) => onChange({ ...journey, reentry: { rule: "once_per_period", periodDays: Number(e.target.value) || null } })} />
          </Row>
        )}
      </div>
      <div className="grid gap-3">
        <Row label="Conversion goal" htmlFor="journey-goal" hint="A run counts as converted when this happens during it or within a week after.">
          <NativeSelect id="journey-goal" value={goal?.kind ?? ""} onChange={(e) => onChange({ ...journey, goal: e.target.value ? GOAL_DEFAULTS[e.target.value as JourneyGoal["kind"]] : null })}>
            <option value="">No goal</option>
            <option value="event">An event (API)</option>
            <option value="campaign">A trigger of another campaign</option>
            <option value="attribute">An attribute changes</option>
          </NativeSelect>
        </Row>
        {goal && goal.kind !== "attribute" && <ExternalEventFields id="goal" event={goal} env={env} onChange={(next) => onChange({ ...journey, goal: next })} />}
        {goal?.kind === "attribute" && (
          <div className="grid gap-3 sm:grid-cols-2">
            <Row label="Goal attribute" htmlFor="goal-attribute">
              <Input id="goal-attribute" value={goal.attribute} onChange={(e) => onChange({ ...journey, goal: { ...goal, attribute: e.target.value } })} />
            </Row>
            <Row label="Goal value" htmlFor="goal-value" hint="Empty: any change.">
              <Input id="goal-value" value={goal.value === null ? "" : String(goal.value)} onChange={(e) => onChange({ ...journey, goal: { ...goal, value: e.target.value || null } })} />
            </Row>
          </div>
        )}
      </div>
      {issues.length > 0 && (
        <ul className="grid gap-1" aria-label="Problems in the journey settings">
          {issues.map((issue) => (
            <li key={`${issue.path}:${issue.message}`} className="flex items-start gap-1.5 text-xs font-medium text-destructive">
              <AlertCircle className="mt-0.5 size-3.5 shrink-0" aria-hidden /> {issue.path}: {issue.message}
            </li>
          ))}
        </ul>
      )}
    </section>
  );
}
