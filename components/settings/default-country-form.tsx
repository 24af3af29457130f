"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField, fieldAria } from "@/components/ui/form-field";
import { NativeSelect } from "@/components/campaigns/native-select";
import { toast } from "@/components/ui/toaster";
import { countryOptions } from "@/components/contacts/import/countries";
import { requestJson } from "@/lib/http/client";

/** The workspace's default country: where import and test send start for numbers without a country code. */
export function DefaultCountryForm({ initialCountry }: { initialCountry: string | null }) {
  const [saved, setSaved] = useState(initialCountry ?? "");
  const [country, setCountry] = useState(initialCountry ?? "");
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const unchanged = country === saved;

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setError(undefined);
    setSaving(true);
    const result = await requestJson<{ defaultCountry: string | null }>("/api/workspace/default-country", { method: "PUT", body: { defaultCountry: country || null } });
    setSaving(false);
    if (!result.ok) {
      setError(result.problem.errors?.find((e) => e.path === "defaultCountry")?.message ?? result.problem.detail);
      return;
    }
    setSaved(result.data.defaultCountry ?? "");
    setCountry(result.data.defaultCountry ?? "");
    toast.success("Default country saved");
  }

  return (
    <form onSubmit={save} noValidate>
      <Card>
        <CardHeader>
          <CardTitle>Default country</CardTitle>
          <CardDescription>
            Phone numbers written without a country code (such as 0612 345 678) are read as numbers of this country. Imports and test sends start with it; each can
            pick another country for that one time.
          </CardDescription>
        </CardHeader>
        <CardContent>
          <FormField id="workspace-default-country" label="Default country" error={error} hint="With no default country, such numbers are refused (never guessed) unless the import or test picks a country.">
            <NativeSelect {...fieldAria("workspace-default-country", error, true)} value={country} onChange={(event) => setCountry(event.target.value)} className="max-w-sm">
              <option value="">None</option>
              {countryOptions().map((option) => (
                <option key={option.code} value={option.code}>
                  {option.label}
                </option>
              ))}
            </NativeSelect>
          </FormField>
        </CardContent>
        <CardFooter className="gap-2">
          <Button type="submit" disabled={saving || unchanged}>
            {saving ? "Saving…" : "Save country"}
          </Button>
        </CardFooter>
      </Card>
    </form>
  );
}
