"use client";

import { NativeSelect } from "@/components/campaigns/native-select";
import { Input } from "@/components/ui/input";
import { parsePhone, type CountryCode } from "@/lib/contacts/phone";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { formatCount } from "../format";
import type { AttributeDefinition, AttributeType } from "../types";
import { countryOptions } from "./countries";
import type { CsvPreview, CsvScan } from "./csv-scan";
import { ConsentValuesEditor } from "./consent-values";
import { attributeKeyFor, consentChoice, presetFor, subscribesContacts, type ColumnChoice } from "./mapping";

const TYPES: AttributeType[] = ["string", "number", "boolean", "date"];

function choiceValue(choice: ColumnChoice): string {
  return choice.kind === "existing" ? `existing:${choice.key}` : choice.kind;
}

/** Step 2: what each column becomes, and the default country for numbers without a country code. */
export function MappingStep({
  preview,
  scan,
  choices,
  errors,
  existing,
  defaultCountry,
  onChoice,
  onDefaultCountry,
  permission,
  onPermission,
  permissionError,
}: {
  preview: CsvPreview;
  scan: CsvScan | null;
  choices: ColumnChoice[];
  errors: Record<number, string>;
  existing: AttributeDefinition[];
  defaultCountry: string;
  onChoice: (index: number, choice: ColumnChoice) => void;
  onDefaultCountry: (country: string) => void;
  permission: boolean;
  onPermission: (confirmed: boolean) => void;
  permissionError: string | null;
}) {
  const phoneIndex = choices.findIndex((choice) => choice.kind === "phone");
  const affected = scan && phoneIndex >= 0 ? scan.withoutCountryCode[phoneIndex] ?? 0 : null;

  /** The column's values: every distinct one of the file once it is read, the preview's until then. */
  const valuesOf = (index: number) => scan?.distinctValues[index] ?? preview.rows.map((row) => row[index] ?? "");

  function select(index: number, value: string) {
    const header = preview.headers[index] ?? "";
    if (value === "consent") return onChoice(index, consentChoice(presetFor(valuesOf(index))));
    if (value.startsWith("existing:")) onChoice(index, { kind: "existing", key: value.slice("existing:".length) });
    else if (value === "new") {
      const previous = choices[index];
      onChoice(index, previous?.kind === "new" ? previous : { kind: "new", key: attributeKeyFor(header), attributeType: "string" });
    } else onChoice(index, { kind: value as "phone" | "name" | "skip" });
  }

  return (
    <div className="grid gap-6">
      <div className="overflow-hidden rounded-xl border">
        <Table aria-label="Column mapping">
          <TableHeader>
            <TableRow>
              <TableHead>Column</TableHead>
              <TableHead className="hidden sm:table-cell">Sample values</TableHead>
              <TableHead className="min-w-52 sm:min-w-60">Import as</TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {preview.headers.map((header, index) => {
              const choice = choices[index] ?? { kind: "skip" };
              const label = header || `Column ${index + 1}`;
              return (
                <TableRow key={index} className="align-top">
                  <TableCell className="max-w-32 truncate font-medium sm:max-w-48">{label}</TableCell>
                  <TableCell className="hidden max-w-56 truncate font-mono text-xs text-muted-foreground sm:table-cell">
                    {preview.rows.slice(0, 3).map((row) => row[index] ?? "").filter(Boolean).join(", ") || "—"}
                  </TableCell>
                  <TableCell className="whitespace-normal">
                    <div className="grid gap-2">
                      <NativeSelect aria-label={`Import “${label}” as`} value={choiceValue(choice)} onChange={(event) => select(index, event.target.value)} aria-invalid={errors[index] ? true : undefined}>
                        <option value="phone">Phone number</option>
                        <option value="name">Name</option>
                        <option value="consent">Consent (opt-in / opt-out)…</option>
                        {existing.length > 0 && (
                          <optgroup label="Existing attributes">
                            {existing.map((attribute) => (
                              <option key={attribute.key} value={`existing:${attribute.key}`}>{attribute.key} ({attribute.type})</option>
                            ))}
                          </optgroup>
                        )}
                        <option value="new">New attribute…</option>
                        <option value="skip">Skip this column</option>
                      </NativeSelect>
                      {choice.kind === "new" && (
                        <div className="flex gap-2">
                          <Input
                            aria-label={`Attribute name for “${label}”`}
                            value={choice.key}
                            onChange={(event) => onChoice(index, { ...choice, key: event.target.value })}
                            className="font-mono"
                          />
                          <NativeSelect
                            aria-label={`Type of “${label}”`}
                            value={choice.attributeType}
                            onChange={(event) => onChoice(index, { ...choice, attributeType: event.target.value as AttributeType })}
                            className="w-32 shrink-0"
                          >
                            {TYPES.map((type) => (
                              <option key={type} value={type}>{type}</option>
                            ))}
                          </NativeSelect>
                        </div>
                      )}
                      {choice.kind === "consent" && <ConsentValuesEditor label={label} choice={choice} fileValues={valuesOf(index)} onChange={(next) => onChoice(index, next)} />}
                      {errors[index] && <p role="alert" className="text-xs font-medium text-destructive">{errors[index]}</p>}
                    </div>
                  </TableCell>
                </TableRow>
              );
            })}
          </TableBody>
        </Table>
      </div>

      {subscribesContacts(choices) && (
        <div className="grid gap-1.5 rounded-xl border border-amber-200 bg-amber-50 p-4 text-amber-950">
          <div className="flex items-start gap-2.5">
            <input
              id="import-permission"
              type="checkbox"
              checked={permission}
              onChange={(event) => onPermission(event.target.checked)}
              aria-invalid={permissionError ? true : undefined}
              aria-describedby="import-permission-hint"
              className="mt-0.5 size-4 shrink-0 accent-[var(--primary)]"
            />
            <label htmlFor="import-permission" className="text-sm font-medium">
              I confirm these contacts gave permission to receive WhatsApp messages from us
            </label>
          </div>
          <p id="import-permission-hint" className="pl-6.5 text-xs">
            The file marks contacts subscribed, so marketing campaigns will reach them. WhatsApp requires their opt-in; your confirmation is recorded in the audit log.
          </p>
          {permissionError && <p role="alert" className="pl-6.5 text-xs font-medium text-destructive">{permissionError}</p>}
        </div>
      )}

      <div className="grid gap-2 rounded-xl border bg-card p-4 shadow-xs">
        <label htmlFor="import-country" className="text-sm font-medium">Default country</label>
        <NativeSelect id="import-country" value={defaultCountry} onChange={(event) => onDefaultCountry(event.target.value)} className="max-w-sm" aria-describedby="import-country-effect">
          <option value="">None (numbers must start with +)</option>
          {countryOptions().map((country) => (
            <option key={country.code} value={country.code}>{country.label}</option>
          ))}
        </NativeSelect>
        <p id="import-country-effect" className="text-xs text-muted-foreground" data-testid="country-effect">
          {affected === null
            ? phoneIndex < 0
              ? "Pick the phone column to see how many numbers lack a country code."
              : "Counting the numbers without a country code…"
            : affected === 0
              ? "Every phone number has a country code, so this choice affects no rows."
              : defaultCountry
                ? `This choice affects ${formatCount(affected)} ${affected === 1 ? "row" : "rows"}: their numbers are read as numbers of this country.`
                : `This choice affects ${formatCount(affected)} ${affected === 1 ? "row" : "rows"}: numbers without a country code are rejected as invalid.`}
        </p>
      </div>

      <section aria-labelledby="preview-heading" className="grid gap-2">
        <h2 id="preview-heading" className="text-sm font-medium">
          Preview <span className="font-normal text-muted-foreground">— first {preview.rows.length} rows{scan ? ` of ${formatCount(scan.rows)}` : ""}</span>
        </h2>
        <div className="overflow-hidden rounded-xl border">
          <Table aria-label="File preview">
            <TableHeader>
              <TableRow>
                {phoneIndex >= 0 && <TableHead>Phone as imported</TableHead>}
                {preview.headers.map((header, index) => (
                  <TableHead key={index}>{header || `Column ${index + 1}`}</TableHead>
                ))}
              </TableRow>
            </TableHeader>
            <TableBody>
              {preview.rows.map((row, rowIndex) => (
                <TableRow key={rowIndex}>
                  {phoneIndex >= 0 && <PhoneCell raw={row[phoneIndex] ?? ""} defaultCountry={defaultCountry} />}
                  {preview.headers.map((_, index) => (
                    <TableCell key={index} className="max-w-48 truncate font-mono text-xs">{row[index] ?? ""}</TableCell>
                  ))}
                </TableRow>
              ))}
            </TableBody>
          </Table>
        </div>
      </section>
    </div>
  );
}

/** The number as the import will store it, or why the row will be rejected. */
function PhoneCell({ raw, defaultCountry }: { raw: string; defaultCountry: string }) {
  const parsed = parsePhone(raw, { defaultCountry: (defaultCountry || null) as CountryCode | null });
  return parsed.ok ? (
    <TableCell className="font-mono text-xs">{parsed.phone}</TableCell>
  ) : (
    <TableCell className="max-w-56 truncate text-xs text-destructive" title={parsed.reason}>
      Invalid: {parsed.reason}
    </TableCell>
  );
}
