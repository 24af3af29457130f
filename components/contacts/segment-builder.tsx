"use client";

import { Plus } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import * as React from "react";
import { NativeSelect } from "@/components/campaigns/native-select";
import { Button } from "@/components/ui/button";
import { FormField, fieldAria } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";
import { ConditionRow } from "./condition-row";
import { formatCount } from "./format";
import { fromCondition, newDraft, toCondition, type DraftCondition } from "./segment-conditions";
import type { AttributeDefinition, ContactList, Page, Segment, SegmentFilter } from "./types";
import { useApi } from "./use-api";

const COUNT_DEBOUNCE_MS = 350;

type CountState = { state: "idle" | "counting" } | { state: "done"; count: number; key: string } | { state: "error"; message: string };

/** Name, match all/any and conditions, with a live count of the contacts the filter selects. */
export function SegmentBuilder({ segment, onSaved }: { segment?: Segment; onSaved?: () => void }) {
  const router = useRouter();
  const attributes = useApi<{ data: AttributeDefinition[] }>("/api/v1/contact-attributes");
  const lists = useApi<Page<ContactList>>("/api/v1/lists?limit=100");
  const definitions = React.useMemo(() => attributes.data?.data ?? [], [attributes.data]);

  const [name, setName] = React.useState(segment?.name ?? "");
  const [match, setMatch] = React.useState<"all" | "any">(segment?.filter.match ?? "all");
  const [drafts, setDrafts] = React.useState<DraftCondition[]>(() => segment?.filter.conditions.map(fromCondition) ?? []);
  const [nameError, setNameError] = React.useState<string | undefined>();
  const [saving, setSaving] = React.useState(false);
  const [count, setCount] = React.useState<CountState>({ state: "idle" });

  const converted = drafts.map((draft) => toCondition(draft, definitions));
  const complete = converted.every((result) => result.ok);
  const filter: SegmentFilter | null = complete ? { match, conditions: converted.map((result) => (result.ok ? result.condition : null!)) } : null;
  const filterKey = filter ? JSON.stringify(filter) : null;

  React.useEffect(() => {
    if (!filterKey) return;
    const controller = new AbortController();
    const timer = setTimeout(async () => {
      setCount({ state: "counting" });
      const result = await requestJson<{ count?: number; contactCount?: number }>("/api/v1/segments/count", { method: "POST", body: { filter: JSON.parse(filterKey) }, signal: controller.signal });
      if (controller.signal.aborted) return;
      if (result.ok) setCount({ state: "done", count: result.data.count ?? result.data.contactCount ?? 0, key: filterKey });
      else setCount({ state: "error", message: result.problem.errors?.[0]?.message ?? result.problem.detail });
    }, COUNT_DEBOUNCE_MS);
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [filterKey]);

  async function save(event: React.FormEvent) {
    event.preventDefault();
    if (!name.trim()) return setNameError("Give the segment a name.");
    if (!filter) return;
    setSaving(true);
    const result = await requestJson<Segment>(segment ? `/api/v1/segments/${segment.id}` : "/api/v1/segments", {
      method: segment ? "PATCH" : "POST",
      body: { name: name.trim(), filter },
    });
    setSaving(false);
    if (!result.ok) {
      setNameError(result.problem.errors?.find((e) => e.path === "name")?.message ?? (result.status === 409 ? result.problem.detail : undefined));
      toast.error(result.problem.detail);
      return;
    }
    toast.success(segment ? "Segment saved." : "Segment created.");
    if (segment) onSaved?.();
    else router.push(`/contacts/segments/${result.data.id}`);
  }

  const shownCount = count.state === "done" && count.key === filterKey ? count.count : null;
  return (
    <form onSubmit={save} aria-label="Segment" className="grid gap-6">
      <FormField id="segment-name" label="Name" error={nameError} className="max-w-md">
        <Input {...fieldAria("segment-name", nameError)} value={name} onChange={(event) => { setName(event.target.value); setNameError(undefined); }} maxLength={100} placeholder="e.g. Lisbon customers" />
      </FormField>

      <div className="grid gap-3 rounded-xl border bg-card p-4 shadow-xs">
        <div className="flex flex-wrap items-center gap-2 text-sm">
          <span>Contacts that match</span>
          <NativeSelect aria-label="Match" value={match} onChange={(event) => setMatch(event.target.value as "all" | "any")} className="w-28">
            <option value="all">all</option>
            <option value="any">any</option>
          </NativeSelect>
          <span>of these conditions</span>
        </div>
        {drafts.length === 0 ? (
          <p className="text-sm text-muted-foreground">No conditions: the segment holds every contact.</p>
        ) : (
          <ol className="grid gap-2" aria-label="Conditions">
            {drafts.map((draft, index) => {
              const result = converted[index];
              return (
                <ConditionRow
                  key={draft.id}
                  index={index}
                  draft={draft}
                  definitions={definitions}
                  lists={lists.data?.data ?? []}
                  error={result && !result.ok && (draft.value || draft.listId) ? result.message : undefined}
                  onChange={(next) => setDrafts((current) => current.map((d) => (d.id === draft.id ? next : d)))}
                  onRemove={() => setDrafts((current) => current.filter((d) => d.id !== draft.id))}
                />
              );
            })}
          </ol>
        )}
        <div>
          <Button type="button" variant="outline" size="sm" disabled={attributes.loading} onClick={() => setDrafts((current) => [...current, newDraft(definitions.length > 0 ? "attribute" : "opted_out", definitions)])}>
            <Plus aria-hidden />
            Add condition
          </Button>
        </div>
      </div>

      <div className="flex flex-wrap items-center justify-between gap-4 rounded-xl border bg-muted/40 p-4">
        <p className="text-sm" aria-live="polite" data-testid="segment-count">
          {!filter ? (
            <span className="text-muted-foreground">Complete the conditions to see how many contacts match.</span>
          ) : count.state === "error" ? (
            <span className="text-destructive">{count.message}</span>
          ) : shownCount === null ? (
            <span className="text-muted-foreground">Counting…</span>
          ) : (
            <>
              <span className="text-lg font-semibold tabular-nums">{formatCount(shownCount)}</span> {shownCount === 1 ? "contact matches" : "contacts match"}
            </>
          )}
        </p>
        <div className="flex gap-2">
          <Button asChild variant="ghost">
            <Link href="/contacts/segments">Cancel</Link>
          </Button>
          <Button type="submit" disabled={saving || !filter}>{saving ? "Saving…" : segment ? "Save segment" : "Create segment"}</Button>
        </div>
      </div>
    </form>
  );
}
