"use client";

import { Radio } from "lucide-react";
import { useParams } from "next/navigation";
import { useEffect, useMemo, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { MAX_TRIGGER_EXAMPLE_BYTES, newTriggerField, type FieldType, type TriggerField } from "@/lib/campaigns/schemas";
import { requestJson } from "@/lib/http/client";
import { attributeForPath, bodyLeaves, guessFieldsFromBody, type GuessedMapping } from "@/lib/trigger/requests-fields";
import type { TriggerRequestPage, TriggerRequestRecord } from "@/lib/trigger/requests-query";
import type { BuilderForm } from "../builder-parts";
import { BodyTree, type LeafChoice } from "./body-tree";

const POLL_MS = 1500;

export interface ConfirmedMapping {
  /** Null: keep the phone mapping as it is. */
  phoneField: string | null;
  phoneFallbacks: string[] | null;
  countryField: string | null;
  /** `exampleValue`: the field's value in the captured body (absent, null or empty: the field is optional). */
  fields: { field: string; type: FieldType; exampleValue: unknown }[];
  /** The captured body, stored as the trigger node's example (null when too large). */
  example: unknown;
}

/**
 * "Listen for a test request": waits for the next call to the campaign's webhook (recorded even
 * while the campaign is a draft, which answers 409), shows its body as a tree to pick the phone and
 * fields from (types guessed from the values), and keeps the body as the example.
 */
export function ListenForRequest({
  mappedFields,
  phoneField,
  onConfirm,
}: {
  mappedFields: string[];
  phoneField: string;
  onConfirm: (mapping: ConfirmedMapping) => void;
}) {
  const { id: campaignId } = useParams<{ id: string }>();
  const [open, setOpen] = useState(false);
  return (
    <Dialog open={open} onOpenChange={setOpen}>
      <Button type="button" variant="outline" size="sm" onClick={() => setOpen(true)}>
        <Radio aria-hidden /> Listen for a test request
      </Button>
      <DialogContent className="max-w-2xl">
        {open && (
          <Listener
            campaignId={campaignId}
            mappedFields={mappedFields}
            currentPhoneField={phoneField}
            onConfirm={(mapping) => {
              onConfirm(mapping);
              setOpen(false);
            }}
            onCancel={() => setOpen(false)}
          />
        )}
      </DialogContent>
    </Dialog>
  );
}

function Listener({
  campaignId,
  mappedFields,
  currentPhoneField,
  onConfirm,
  onCancel,
}: {
  campaignId: string;
  mappedFields: string[];
  currentPhoneField: string;
  onConfirm: (mapping: ConfirmedMapping) => void;
  onCancel: () => void;
}) {
  const [received, setReceived] = useState<TriggerRequestRecord | null>(null);
  const [problem, setProblem] = useState<string | null>(null);

  useEffect(() => {
    let stopped = false;
    let baseline: string | null | undefined;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const poll = async () => {
      const result = await requestJson<TriggerRequestPage>(`/api/v1/campaigns/${campaignId}/requests?limit=1`);
      if (stopped) return;
      if (!result.ok) setProblem(result.problem.detail);
      else {
        setProblem(null);
        const newest = result.data.data[0] ?? null;
        if (baseline === undefined) baseline = newest?.id ?? null;
        else if (newest && newest.id !== baseline) {
          setReceived(newest);
          return;
        }
      }
      timer = setTimeout(() => void poll(), POLL_MS);
    };
    void poll();
    return () => {
      stopped = true;
      clearTimeout(timer);
    };
  }, [campaignId]);

  const origin = typeof window === "undefined" ? "" : window.location.origin;
  const url = `${origin}/api/campaigns/${campaignId}/trigger`;

  if (!received) {
    return (
      <>
        <DialogHeader>
          <DialogTitle>Listening for a test request…</DialogTitle>
          <DialogDescription>
            Send one request from your system (or curl) to the webhook with an API key. While the campaign is a draft it is answered 409 and nothing is
            sent, but its fields are shown here.
          </DialogDescription>
        </DialogHeader>
        <pre tabIndex={0} className="overflow-x-auto rounded-md bg-muted/50 p-3 font-mono text-xs" aria-label="Example request">
          {`curl -X POST '${url}' \\\n  -H 'Content-Type: application/json' \\\n  -H 'x-api-key: <API_KEY>' \\\n  -d '{"phone":"+14155552671","order_number":10482}'`}
        </pre>
        <p role="status" className="flex items-center gap-2 text-sm text-muted-foreground">
          <span className="size-2 animate-pulse rounded-full bg-primary" aria-hidden />
          {problem ?? "Waiting for the next request to this campaign…"}
        </p>
        <DialogFooter>
          <Button type="button" variant="outline" onClick={onCancel}>
            Stop listening
          </Button>
        </DialogFooter>
      </>
    );
  }

  const guessed = guessFieldsFromBody(received.body);
  return guessed ? (
    <Review
      record={received}
      guessed={guessed}
      mappedFields={mappedFields}
      currentPhoneField={currentPhoneField}
      onConfirm={onConfirm}
      onCancel={onCancel}
    />
  ) : (
    <>
      <DialogHeader>
        <DialogTitle>The request has no fields to map</DialogTitle>
        <DialogDescription>Its body is not a JSON object{received.bodyTruncated ? " (it was longer than 8 KiB and cut)" : ""}.</DialogDescription>
      </DialogHeader>
      <pre tabIndex={0} className="max-h-60 overflow-auto rounded-md bg-muted/50 p-3 font-mono text-xs break-all whitespace-pre-wrap">
        {received.body || "(empty)"}
      </pre>
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Close
        </Button>
      </DialogFooter>
    </>
  );
}

function Review({
  record,
  guessed,
  mappedFields,
  currentPhoneField,
  onConfirm,
  onCancel,
}: {
  record: TriggerRequestRecord;
  guessed: GuessedMapping;
  mappedFields: string[];
  currentPhoneField: string;
  onConfirm: (mapping: ConfirmedMapping) => void;
  onCancel: () => void;
}) {
  const mapped = useMemo(() => new Set([...mappedFields, currentPhoneField]), [mappedFields, currentPhoneField]);
  const guessedTypes = useMemo(() => new Map(guessed.fields.map((f) => [f.field, f.type])), [guessed]);
  // A flat body's fields start ticked (there are few); in a nested one the user picks.
  const flat = guessed.fields.every((f) => !/[.[]/.test(f.field));
  const [choices, setChoices] = useState<Record<string, LeafChoice>>(() =>
    Object.fromEntries(guessed.fields.filter((f) => !mapped.has(f.field)).map((f) => [f.field, { add: flat, type: f.type }])),
  );
  const [phonePath, setPhonePath] = useState<string | null>(guessed.phoneField ?? null);
  const [useExtras, setUseExtras] = useState(true);
  const phoneChanges = phonePath !== null && phonePath !== currentPhoneField;
  const fallbacks = phonePath === guessed.phoneField ? guessed.phoneFallbacks : guessed.phoneFallbacks.filter((p) => p !== phonePath);
  const extras = phoneChanges && (fallbacks.length > 0 || guessed.countryField !== null);
  const selected = Object.entries(choices).filter(([path, choice]) => choice.add && path !== phonePath && !mapped.has(path));
  const leafValues = useMemo(() => new Map(bodyLeaves(Array.isArray(guessed.body) ? guessed.body[0] : guessed.body).map((leaf) => [leaf.path, leaf.value])), [guessed]);
  const example = JSON.stringify(guessed.body).length <= MAX_TRIGGER_EXAMPLE_BYTES ? guessed.body : null;

  return (
    <>
      <DialogHeader>
        <DialogTitle>Request received</DialogTitle>
        <DialogDescription>
          Answered {record.status}
          {record.error ? ` (${record.error.code})` : ""}. Pick the phone number and the fields to add; types are guessed from the values and can be
          changed. The body becomes the campaign&apos;s example request.
        </DialogDescription>
      </DialogHeader>
      <BodyTree
        body={guessed.body}
        phonePath={phonePath}
        onPhonePath={setPhonePath}
        choices={choices}
        onChoice={(path, choice) => setChoices((c) => ({ ...c, [path]: choice }))}
        mapped={mapped}
        guessedTypes={guessedTypes}
      />
      {phoneChanges && (
        <p className="text-sm break-words">
          Phone number: <code className="font-mono break-all">{phonePath}</code>
        </p>
      )}
      {extras && (
        <label className="flex items-start gap-2 rounded-lg border p-3 text-sm">
          <input type="checkbox" className="mt-0.5 size-4 accent-[var(--primary)]" checked={useExtras} onChange={(e) => setUseExtras(e.target.checked)} />
          <span className="min-w-0 break-words">
            {fallbacks.length > 0 && (
              <>
                When it is empty, read <code className="font-mono break-all">{fallbacks.join(", ")}</code>.{" "}
              </>
            )}
            {guessed.countryField && (
              <>
                Read numbers without + in the country at <code className="font-mono break-all">{guessed.countryField}</code>.
              </>
            )}
          </span>
        </label>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button
          type="button"
          disabled={selected.length === 0 && !phoneChanges}
          onClick={() =>
            onConfirm({
              phoneField: phoneChanges ? phonePath : null,
              phoneFallbacks: phoneChanges && useExtras ? fallbacks : null,
              countryField: phoneChanges && useExtras ? guessed.countryField : null,
              fields: selected.map(([field, choice]) => ({ field, type: choice.type, exampleValue: leafValues.get(field) })),
              example,
            })
          }
        >
          {selected.length > 0 ? `Add ${selected.length} ${selected.length === 1 ? "field" : "fields"}` : phoneChanges ? "Use this phone number" : "Select fields to add"}
        </Button>
      </DialogFooter>
    </>
  );
}

type AppendField = (row: TriggerField, options: { shouldFocus: boolean }) => void;

/** Fills the trigger node from a confirmed capture: the phone (with its fallbacks and country field), new fields, and the body as the example. */
export function applyCapturedMapping(form: BuilderForm, mapping: ConfirmedMapping, append: AppendField) {
  const options = { shouldDirty: true, shouldValidate: true };
  if (mapping.phoneField) form.setValue("triggerConfig.phoneField", mapping.phoneField, options);
  if (mapping.phoneFallbacks) form.setValue("triggerConfig.phoneFallbacks", mapping.phoneFallbacks, options);
  if (mapping.countryField) form.setValue("triggerConfig.countryField", mapping.countryField, options);
  if (mapping.example) form.setValue("triggerConfig.example", mapping.example as Record<string, unknown>, options);
  const taken = new Set((form.getValues("triggerConfig.fields") ?? []).map((f) => f.attribute));
  for (const f of mapping.fields) {
    const attribute = attributeForPath(f.field, taken);
    taken.add(attribute);
    // The same defaults as a field added by hand: required unless the captured body had no value for it.
    append(newTriggerField({ field: f.field, attribute, type: f.type, exampleValue: f.exampleValue }), { shouldFocus: false });
  }
}
