"use client";

import { NativeSelect } from "@/components/campaigns/native-select";
import type { ConsentStatus } from "../types";
import { CONSENT_PRESETS, consentChoice, consentKey, type ColumnChoice, type ConsentPreset } from "./mapping";

const STATUS_LABELS: Record<ConsentStatus, string> = { subscribed: "Subscribed", unsubscribed: "Unsubscribed", unknown: "Unknown" };

/**
 * The value mapping of a consent column: a preset, then each value the file holds → a status.
 * A value left unmapped refuses its rows (they are listed in the report); an empty cell changes nothing.
 */
export function ConsentValuesEditor({
  label,
  choice,
  fileValues,
  onChange,
}: {
  label: string;
  choice: Extract<ColumnChoice, { kind: "consent" }>;
  /** The column's distinct values (lower case), from the whole file when known. */
  fileValues: string[];
  onChange: (choice: ColumnChoice) => void;
}) {
  const values = [...new Set([...fileValues.map(consentKey).filter(Boolean), ...Object.keys(choice.values)])];
  const fromFile = new Set(fileValues.map(consentKey));
  const shown = values.filter((value) => fromFile.has(value) || choice.preset === "custom" || !(value in CONSENT_PRESETS[choice.preset].values) || fromFile.size === 0);

  function setValue(value: string, status: ConsentStatus | "") {
    const next = { ...choice.values };
    if (status) next[value] = status;
    else delete next[value];
    onChange({ kind: "consent", preset: "custom", values: next });
  }

  return (
    <div className="grid gap-2 rounded-lg border bg-muted/30 p-2.5" role="group" aria-label={`Consent values of “${label}”`}>
      <label className="grid gap-1 text-xs font-medium">
        Values
        <NativeSelect aria-label={`Consent values preset for “${label}”`} value={choice.preset} onChange={(event) => onChange(consentChoice(event.target.value as ConsentPreset))}>
          {(Object.keys(CONSENT_PRESETS) as ConsentPreset[]).map((preset) => (
            <option key={preset} value={preset}>{CONSENT_PRESETS[preset].label}</option>
          ))}
        </NativeSelect>
      </label>
      <ul className="grid gap-1.5" aria-label={`Consent value mapping of “${label}”`}>
        {shown.map((value) => (
          <li key={value} className="flex min-w-0 items-center justify-between gap-2 text-xs">
            <span className="min-w-0 truncate font-mono" title={value}>“{value}”</span>
            <NativeSelect
              aria-label={`“${value}” means`}
              value={choice.values[value] ?? ""}
              onChange={(event) => setValue(value, event.target.value as ConsentStatus | "")}
              className="w-36 shrink-0"
            >
              <option value="subscribed">{STATUS_LABELS.subscribed}</option>
              <option value="unsubscribed">{STATUS_LABELS.unsubscribed}</option>
              <option value="unknown">{STATUS_LABELS.unknown}</option>
              <option value="">Not mapped: refuse the row</option>
            </NativeSelect>
          </li>
        ))}
      </ul>
      <p className="text-xs text-muted-foreground">
        Empty cells leave consent as it is (new contacts: unknown). A file never subscribes a contact who unsubscribed by reply, by hand or through the API.
      </p>
    </div>
  );
}
