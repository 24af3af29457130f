"use client";

import { Radio } from "lucide-react";
import { useParams } from "next/navigation";
import { useEffect, useState } from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FIELD_TYPES, type FieldType } from "@/lib/campaigns/schemas";
import { requestJson } from "@/lib/http/client";
import { guessFieldsFromBody, type GuessedField, type GuessedMapping } from "@/lib/trigger/requests-fields";
import type { TriggerRequestPage, TriggerRequestRecord } from "@/lib/trigger/requests-query";
import { NativeSelect } from "../native-select";

const POLL_MS = 1500;

export interface ConfirmedMapping {
  phoneField: string | null;
  fields: { field: string; type: FieldType }[];
}

/**
 * "Listen for a test request": waits for the next call to the campaign's webhook (recorded even
 * while the campaign is a draft, which answers 409) and offers its fields, with guessed types, to add.
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
  const offered = guessed.fields.filter((f) => !mappedFields.includes(f.field) && f.field !== currentPhoneField);
  const [chosen, setChosen] = useState<Record<string, { add: boolean; type: FieldType }>>(() =>
    Object.fromEntries(offered.map((f) => [f.field, { add: true, type: f.type }])),
  );
  const [usePhone, setUsePhone] = useState(guessed.phoneField !== null && guessed.phoneField !== currentPhoneField);
  const selected = offered.filter((f) => chosen[f.field]?.add);

  return (
    <>
      <DialogHeader>
        <DialogTitle>Request received</DialogTitle>
        <DialogDescription>
          Answered {record.status}
          {record.error ? ` (${record.error.code})` : ""}. Choose the fields to add; types are guessed from the values and can be changed.
        </DialogDescription>
      </DialogHeader>
      {guessed.phoneField && guessed.phoneField !== currentPhoneField && (
        <label className="flex items-start gap-2 rounded-lg border p-3 text-sm">
          <input type="checkbox" className="mt-0.5 size-4 accent-[var(--primary)]" checked={usePhone} onChange={(e) => setUsePhone(e.target.checked)} />
          <span>
            Use <code className="font-mono">{guessed.phoneField}</code> as the phone number field (it holds a phone number)
          </span>
        </label>
      )}
      {offered.length === 0 ? (
        <p className="text-sm text-muted-foreground">Every field of this request is already mapped.</p>
      ) : (
        <ul className="grid gap-2" aria-label="Fields in the request">
          {offered.map((f: GuessedField) => (
            <li key={f.field} className="grid grid-cols-[auto_minmax(0,1fr)_8rem] items-center gap-3 rounded-lg border px-3 py-2">
              <input
                type="checkbox"
                className="size-4 accent-[var(--primary)]"
                aria-label={`Add ${f.field}`}
                checked={chosen[f.field]?.add ?? false}
                onChange={(e) => setChosen((c) => ({ ...c, [f.field]: { ...c[f.field]!, add: e.target.checked } }))}
              />
              <div className="min-w-0">
                <code className="font-mono text-sm">{f.field}</code>
                <p className="truncate text-xs text-muted-foreground" title={f.sample}>
                  {f.sample}
                </p>
              </div>
              <NativeSelect
                aria-label={`Type of ${f.field}`}
                value={chosen[f.field]?.type}
                onChange={(e) => setChosen((c) => ({ ...c, [f.field]: { ...c[f.field]!, type: e.target.value as FieldType } }))}
              >
                {FIELD_TYPES.map((type) => (
                  <option key={type} value={type}>
                    {type}
                  </option>
                ))}
              </NativeSelect>
            </li>
          ))}
        </ul>
      )}
      <DialogFooter>
        <Button type="button" variant="outline" onClick={onCancel}>
          Cancel
        </Button>
        <Button
          type="button"
          disabled={selected.length === 0 && !usePhone}
          onClick={() =>
            onConfirm({
              phoneField: usePhone ? guessed.phoneField : null,
              fields: selected.map((f) => ({ field: f.field, type: chosen[f.field]!.type })),
            })
          }
        >
          Add {selected.length} {selected.length === 1 ? "field" : "fields"}
        </Button>
      </DialogFooter>
    </>
  );
}
