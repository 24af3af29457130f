"use client";

import { AlertTriangle } from "lucide-react";
import type { LaunchCheck } from "./types";

const number = (n: number) => n.toLocaleString("en-US");

/**
 * The launch check's audience by consent, and (for a marketing template) the choice to include
 * contacts of unknown consent, with its warning.
 */
export function ConsentSplit({
  consent,
  includeUnknown,
  onIncludeUnknown,
  disabled,
}: {
  consent: LaunchCheck["consent"];
  includeUnknown: boolean;
  onIncludeUnknown: (include: boolean) => void;
  disabled?: boolean;
}) {
  const unknownIncluded = !consent.marketing || includeUnknown;
  return (
    <section aria-labelledby="consent-split-heading" className="grid gap-2 rounded-lg border p-3 text-sm">
      <h3 id="consent-split-heading" className="font-medium">
        Consent {consent.marketing ? <span className="font-normal text-muted-foreground">— marketing template</span> : null}
      </h3>
      <ul className="grid gap-1" aria-label="Audience by consent">
        <li>
          <strong className="tabular-nums">{number(consent.subscribed)}</strong> subscribed
        </li>
        <li>
          <strong className="tabular-nums">{number(consent.unknown)}</strong> unknown{" "}
          <span className="text-muted-foreground">({unknownIncluded ? "included" : "excluded: stored as skipped, no consent"})</span>
        </li>
        <li>
          <strong className="tabular-nums">{number(consent.unsubscribed)}</strong> unsubscribed <span className="text-muted-foreground">(excluded: never sent)</span>
        </li>
      </ul>
      {consent.marketing && consent.unknown > 0 && (
        <div className="grid gap-1.5">
          <div className="flex items-start gap-2.5">
            <input
              id="include-unknown-consent"
              type="checkbox"
              checked={includeUnknown}
              disabled={disabled}
              onChange={(event) => onIncludeUnknown(event.target.checked)}
              className="mt-0.5 size-4 shrink-0 accent-[var(--primary)]"
              aria-describedby="include-unknown-warning"
            />
            <label htmlFor="include-unknown-consent">Also send to the {number(consent.unknown)} contacts with unknown consent</label>
          </div>
          <p id="include-unknown-warning" className="flex items-start gap-2 text-xs text-amber-800">
            <AlertTriangle className="mt-0.5 size-3.5 shrink-0" aria-hidden />
            <span>
              WhatsApp requires opt-in for marketing messages. Include them only if they agreed to hear from you; the choice is recorded in the audit log.
            </span>
          </p>
        </div>
      )}
    </section>
  );
}
