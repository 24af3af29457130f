"use client";

import { ShieldOff, Users } from "lucide-react";
import Link from "next/link";
import { useEffect, useState } from "react";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { requestJson } from "@/lib/http/client";
import { NodeBadge } from "../builder-parts";
import type { AudienceCount, AudienceOption, AudienceSelection } from "./types";
import { useDebounced } from "./use-debounced";

const number = (n: number) => n.toLocaleString("en-US");

/** Counts the recipients of a selection as it changes (opted-out contacts are never counted). */
export function useAudienceCount(selection: AudienceSelection) {
  const wanted = { listIds: selection.listIds, segmentIds: selection.segmentIds, contactIds: selection.contactIds, excludeContactIds: selection.excludeContactIds };
  const settled = useDebounced(wanted, 300);
  const [state, setState] = useState<{ key: string; count?: AudienceCount; error?: string } | null>(null);
  const key = JSON.stringify(settled);
  const empty = settled.listIds.length === 0 && settled.segmentIds.length === 0 && !settled.contactIds?.length;

  useEffect(() => {
    if (empty) return;
    const controller = new AbortController();
    requestJson<AudienceCount>("/api/v1/audiences/count", { method: "POST", body: settled, signal: controller.signal }).then((result) => {
      if (controller.signal.aborted) return;
      setState(result.ok ? { key, count: result.data } : { key, error: result.problem.detail });
    });
    return () => controller.abort();
    // `key` stands for `settled`.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [key, empty]);

  if (empty) return { count: { count: 0, optedOutExcluded: 0, consent: { subscribed: 0, unknown: 0 } } satisfies AudienceCount, loading: false, error: undefined };
  const current = state?.key === key && JSON.stringify(wanted) === key;
  return { count: state?.count, loading: !current, error: current ? state?.error : undefined };
}

export function AudiencePicker({
  lists,
  segments,
  value,
  onChange,
  disabled,
  error,
}: {
  lists: AudienceOption[];
  segments: AudienceOption[];
  value: AudienceSelection;
  onChange: (next: AudienceSelection) => void;
  disabled?: boolean;
  error?: string;
}) {
  const { count, loading, error: countError } = useAudienceCount(value);

  function toggle(kind: "listIds" | "segmentIds", id: string, checked: boolean) {
    const current = value[kind];
    onChange({ ...value, [kind]: checked ? [...current, id] : current.filter((x) => x !== id) });
  }

  return (
    <Card className="gap-4 border-l-4 border-l-primary" role="group" aria-labelledby="audience-node-title">
      <CardHeader>
        <div className="flex items-start gap-3">
          <NodeBadge step={1} icon={<Users />} />
          <div className="min-w-0">
            <CardTitle id="audience-node-title">Audience: who receives it</CardTitle>
            <CardDescription className="mt-1">Pick any lists and segments. A contact in several of them gets one message.</CardDescription>
          </div>
        </div>
      </CardHeader>
      <CardContent className="grid gap-4">
        {lists.length === 0 && segments.length === 0 ? (
          <p className="rounded-lg border border-dashed p-3 text-sm text-muted-foreground">
            No lists or segments yet.{" "}
            <Link href="/contacts/lists" className="font-medium text-foreground underline underline-offset-2">
              Create a list
            </Link>{" "}
            or import contacts first.
          </p>
        ) : (
          <div className="grid gap-4 sm:grid-cols-2">
            <OptionGroup legend="Lists" options={lists} selected={value.listIds} onToggle={(id, on) => toggle("listIds", id, on)} disabled={disabled} />
            <OptionGroup legend="Segments" options={segments} selected={value.segmentIds} onToggle={(id, on) => toggle("segmentIds", id, on)} disabled={disabled} />
          </div>
        )}
        {value.contactIds && value.contactIds.length > 0 && (
          <p className="text-sm text-muted-foreground">
            Plus <strong className="font-medium text-foreground">{number(value.contactIds.length)}</strong> contacts chosen one by one (from &quot;Send again&quot;).
          </p>
        )}
        <div className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 rounded-lg bg-muted/60 px-3 py-2.5 text-sm">
          <p role="status" aria-live="polite" data-testid="audience-count">
            {countError ? (
              <span className="text-destructive">{countError}</span>
            ) : count ? (
              <>
                <strong className="font-semibold tabular-nums">{number(count.count)}</strong> {count.count === 1 ? "recipient" : "recipients"}
                {count.consent.unknown > 0 && (
                  <span className="text-muted-foreground" title="A marketing template reaches only subscribed contacts unless the launch includes unknown consent.">
                    {" "}
                    · {number(count.consent.subscribed)} subscribed, {number(count.consent.unknown)} unknown consent
                  </span>
                )}
                {loading && <span className="text-muted-foreground"> · updating…</span>}
              </>
            ) : (
              <span className="text-muted-foreground">Counting…</span>
            )}
          </p>
          <p className="flex items-center gap-1.5 text-xs text-muted-foreground">
            <ShieldOff className="size-3.5" aria-hidden />
            Opted-out contacts are always left out
            {count && count.optedOutExcluded > 0 ? ` (${number(count.optedOutExcluded)} here)` : ""}.
          </p>
        </div>
        {error && (
          <p role="alert" className="text-xs font-medium text-destructive">
            {error}
          </p>
        )}
      </CardContent>
    </Card>
  );
}

function OptionGroup({
  legend,
  options,
  selected,
  onToggle,
  disabled,
}: {
  legend: string;
  options: AudienceOption[];
  selected: string[];
  onToggle: (id: string, checked: boolean) => void;
  disabled?: boolean;
}) {
  return (
    <fieldset className="min-w-0" disabled={disabled}>
      <legend className="mb-1.5 text-xs font-medium text-muted-foreground">{legend}</legend>
      {options.length === 0 ? (
        <p className="text-xs text-muted-foreground">None yet.</p>
      ) : (
        <ul className="grid max-h-56 gap-0.5 overflow-y-auto rounded-lg border p-1">
          {options.map((option) => (
            <li key={option.id}>
              <label className="flex cursor-pointer items-center gap-2.5 rounded-md px-2 py-1.5 text-sm hover:bg-accent has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring">
                <input
                  type="checkbox"
                  className="size-4 shrink-0 accent-[var(--primary)]"
                  checked={selected.includes(option.id)}
                  onChange={(event) => onToggle(option.id, event.target.checked)}
                />
                <span className="min-w-0 flex-1 truncate">{option.name}</span>
                <span className="shrink-0 text-xs text-muted-foreground tabular-nums">{number(option.contactCount)}</span>
              </label>
            </li>
          ))}
        </ul>
      )}
    </fieldset>
  );
}
