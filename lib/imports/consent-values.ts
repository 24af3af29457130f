// How consent cells of a CSV read: the import wizard's presets and the `consent` column of a CSV sent
// to `POST /contacts/bulk`. No database imports: the wizard runs in the browser.
import type { ConsentStatus } from "@/db/schema";

/** A consent column: each value of the column (lower case, trimmed) → a status; values left out refuse their row. */
export type ConsentValues = Record<string, ConsentStatus>;

/**
 * Presets of an opt-in column: "no" means the contact did not opt in (unknown: no marketing, as
 * before for other messages), not that they opted out; a value can be set to Unsubscribed by hand.
 */
export const CONSENT_PRESETS = {
  yes_no: { label: "Yes / No", values: { yes: "subscribed", y: "subscribed", no: "unknown", n: "unknown" } },
  true_false: { label: "True / False", values: { true: "subscribed", false: "unknown" } },
  one_zero: { label: "1 / 0", values: { "1": "subscribed", "0": "unknown" } },
  subscribed: { label: "Subscribed / Unsubscribed", values: { subscribed: "subscribed", unsubscribed: "unsubscribed", unknown: "unknown" } },
  opted_out: {
    label: "Opted out (true / false)",
    values: { true: "unsubscribed", yes: "unsubscribed", y: "unsubscribed", "1": "unsubscribed", false: "unknown", no: "unknown", n: "unknown", "0": "unknown" },
  },
  custom: { label: "Custom", values: {} },
} as const satisfies Record<string, { label: string; values: ConsentValues }>;
export type ConsentPreset = keyof typeof CONSENT_PRESETS;

/** How a consent cell is compared with a mapping's values. */
export function consentKey(cell: string): string {
  return cell.trim().toLowerCase();
}

/**
 * The `consent` column of a CSV body sent to `POST /contacts/bulk`: the statuses themselves and the
 * opt-in presets (yes/no, true/false, 1/0: "no" is unknown, not unsubscribed), which never disagree.
 */
export const CSV_BODY_CONSENT_VALUES: Readonly<ConsentValues> = {
  ...CONSENT_PRESETS.yes_no.values,
  ...CONSENT_PRESETS.true_false.values,
  ...CONSENT_PRESETS.one_zero.values,
  ...CONSENT_PRESETS.subscribed.values,
};
