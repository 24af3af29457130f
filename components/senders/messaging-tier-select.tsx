"use client";

import { FormField } from "@/components/ui/form-field";
import { Select, SelectContent, SelectItem, SelectTrigger, SelectValue } from "@/components/ui/select";
import type { MessagingTier } from "@/lib/senders/schemas";

const UNKNOWN = "unknown";

const OPTIONS: { value: MessagingTier | typeof UNKNOWN; label: string }[] = [
  { value: "TIER_250", label: "250 customers / 24 h" },
  { value: "TIER_2K", label: "2,000 customers / 24 h" },
  { value: "TIER_10K", label: "10,000 customers / 24 h" },
  { value: "TIER_100K", label: "100,000 customers / 24 h" },
  { value: "TIER_UNLIMITED", label: "Unlimited" },
  { value: UNKNOWN, label: "Unknown" },
];

/** The daily messaging limit bulk campaigns stay within; Test connection fills it in when WhatsApp reports it. */
export function MessagingTierSelect({ value, onChange, error }: { value: MessagingTier | null; onChange: (tier: MessagingTier | null) => void; error?: string }) {
  return (
    <FormField
      id="messaging-tier"
      label="Messaging limit"
      error={error}
      hint="Customers you may start conversations with in 24 hours, as shown in WhatsApp Manager. Test connection reads it from WhatsApp; bulk campaigns stay within it."
      className="sm:col-span-2"
    >
      <Select value={value ?? UNKNOWN} onValueChange={(next) => onChange(next === UNKNOWN ? null : (next as MessagingTier))}>
        <SelectTrigger id="messaging-tier" aria-invalid={error ? true : undefined} aria-describedby={error ? "messaging-tier-error" : "messaging-tier-hint"} className="sm:w-72">
          <SelectValue />
        </SelectTrigger>
        <SelectContent>
          {OPTIONS.map((option) => (
            <SelectItem key={option.value} value={option.value}>
              {option.label}
            </SelectItem>
          ))}
        </SelectContent>
      </Select>
    </FormField>
  );
}
