"use client";

import { useId, useState } from "react";
import { Input } from "@/components/ui/input";
import { NativeSelect } from "../native-select";
import { DURATION_UNITS } from "./describe";

/** A labelled row of a step editor. */
export function Row({ label, htmlFor, children, hint }: { label: string; htmlFor: string; children: React.ReactNode; hint?: string }) {
  return (
    <div className="grid gap-1.5">
      <label htmlFor={htmlFor} className="text-sm font-medium">
        {label}
      </label>
      {children}
      {hint && <p className="text-xs text-muted-foreground">{hint}</p>}
    </div>
  );
}

function splitSeconds(seconds: number) {
  const unit = [...DURATION_UNITS].reverse().find((u) => seconds % u.seconds === 0) ?? DURATION_UNITS[0];
  return { count: seconds / unit.seconds, unit: unit.unit as string };
}

/** A duration as a count and a unit (seconds to days), kept in whole seconds. */
export function DurationField({ label, seconds, onChange, allowNegative = false }: { label: string; seconds: number; onChange: (seconds: number) => void; allowNegative?: boolean }) {
  const id = useId();
  const initial = splitSeconds(Math.abs(seconds) || 1);
  const [unit, setUnit] = useState(initial.unit);
  const factor = DURATION_UNITS.find((u) => u.unit === unit)?.seconds ?? 1;
  const count = seconds / factor;
  return (
    <div className="grid gap-1.5">
      <label htmlFor={id} className="text-sm font-medium">
        {label}
      </label>
      <div className="flex gap-2">
        <Input
          id={id}
          type="number"
          inputMode="numeric"
          min={allowNegative ? undefined : 1}
          step={1}
          className="w-28"
          value={Number.isInteger(count) ? count : Number(count.toFixed(2))}
          onChange={(event) => onChange(Math.round(Number(event.target.value) * factor))}
        />
        <NativeSelect aria-label={`${label}: unit`} className="w-32" value={unit} onChange={(event) => {
            const next = DURATION_UNITS.find((u) => u.unit === event.target.value) ?? DURATION_UNITS[0];
            setUnit(next.unit);
            onChange(Math.round(count * next.seconds));
          }}>
          {DURATION_UNITS.map((u) => (
            <option key={u.unit} value={u.unit}>
              {u.unit}
            </option>
          ))}
        </NativeSelect>
      </div>
    </div>
  );
}
