"use client";

import * as React from "react";
import { NativeSelect } from "@/components/campaigns/native-select";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField, fieldAria } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { parsePhone, type CountryCode } from "@/lib/contacts/phone";
import { requestJson } from "@/lib/http/client";
import { countryOptions } from "./import/countries";
import { useWorkspaceDefaultCountry } from "./import/default-country";
import { AttributeRows, attributeValues, type AttributeRow } from "./attribute-rows";
import { CONSENT_STATUS_LABELS } from "./format";

type Errors = Partial<Record<"phone" | "name" | "attributes" | "form", string>>;

/** Add one contact by hand: POST /api/v1/contacts with `ifExists: "error"`, so a known phone is a 409 shown on the field. */
export function AddContactDialog({ open, onOpenChange, onCreated }: { open: boolean; onOpenChange: (open: boolean) => void; onCreated: (id: string) => void }) {
  // The workspace's default country until one is picked here.
  const workspaceCountry = useWorkspaceDefaultCountry();
  const [pickedCountry, setCountry] = React.useState<string | null>(null);
  const country = pickedCountry ?? workspaceCountry.country;
  const [phone, setPhone] = React.useState("");
  const [name, setName] = React.useState("");
  const [consent, setConsent] = React.useState("unknown");
  const [rows, setRows] = React.useState<AttributeRow[]>([]);
  const [errors, setErrors] = React.useState<Errors>({});
  const [busy, setBusy] = React.useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    const parsed = parsePhone(phone, { defaultCountry: (country || null) as CountryCode | null });
    if (!parsed.ok) {
      setErrors({ phone: `Not a phone number: ${parsed.reason}.` });
      return;
    }
    const attributes = attributeValues(rows);
    if (!attributes.ok) {
      setErrors({ attributes: attributes.error });
      return;
    }
    setBusy(true);
    const body = { phone: parsed.phone, ifExists: "error", ...(consent !== "unknown" ? { consent } : {}), ...(name.trim() ? { name: name.trim() } : {}), ...(rows.length ? { attributes: attributes.values } : {}) };
    const result = await requestJson<{ id: string }>("/api/v1/contacts", { method: "POST", body });
    setBusy(false);
    if (!result.ok) {
      const problem = result.problem;
      const field = (path: string) => problem.errors?.find((e) => e.path === path || e.path.startsWith(`${path}.`))?.message;
      if (problem.status === 409) setErrors({ phone: problem.detail });
      else setErrors({ phone: field("phone"), name: field("name"), attributes: field("attributes"), form: problem.errors?.length ? undefined : problem.detail });
      return;
    }
    toast.success(`${parsed.phone} added.`);
    onOpenChange(false);
    onCreated(result.data.id);
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-h-[90dvh] overflow-y-auto">
        <DialogHeader>
          <DialogTitle>Add contact</DialogTitle>
          <DialogDescription>One person by hand. To add many, import a CSV.</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4" noValidate>
          <div className="grid gap-3 sm:grid-cols-[minmax(0,11rem)_1fr]">
            <FormField id="contact-country" label="Country">
              <NativeSelect id="contact-country" value={country} onChange={(event) => setCountry(event.target.value)}>
                <option value="">Number has +code</option>
                {countryOptions().map((option) => (
                  <option key={option.code} value={option.code}>{option.label}</option>
                ))}
              </NativeSelect>
            </FormField>
            <FormField id="contact-phone" label="Phone number" error={errors.phone}>
              <Input {...fieldAria("contact-phone", errors.phone)} type="tel" inputMode="tel" autoComplete="off" value={phone} onChange={(event) => setPhone(event.target.value)} placeholder="+1 415 555 2671" autoFocus />
            </FormField>
          </div>
          <FormField id="contact-name" label="Name (optional)" error={errors.name}>
            <Input {...fieldAria("contact-name", errors.name)} value={name} onChange={(event) => setName(event.target.value)} maxLength={200} />
          </FormField>
          <FormField id="contact-consent" label="Consent">
            <NativeSelect id="contact-consent" value={consent} onChange={(event) => setConsent(event.target.value)}>
              {Object.entries(CONSENT_STATUS_LABELS).map(([value, label]) => (
                <option key={value} value={value}>{label}</option>
              ))}
            </NativeSelect>
          </FormField>
          <AttributeRows rows={rows} onChange={setRows} error={errors.attributes} />
          {errors.form && <p role="alert" className="text-sm text-destructive">{errors.form}</p>}
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>Cancel</Button>
            <Button type="submit" disabled={busy}>Add contact</Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
