// One CSV record → one staged row: the E.164 phone, the name, typed attributes, consent, or the
// reason the row is refused. Pure, so the rules are tested without a database.
import Papa from "papaparse";
import { parseAttributeText } from "@/lib/contacts/attributes";
import { parsePhone, type CountryCode } from "@/lib/contacts/phone";
import { MAX_CONTACT_NAME_LENGTH } from "@/lib/contacts/schemas";
import { isStorableText, toStorableText } from "@/lib/http/storable-text";
import type { AttributeType, ConsentStatus } from "@/db/schema";
import { CONSENT_PRESETS, consentKey, CSV_BODY_CONSENT_VALUES } from "./consent-values";
import type { ImportOptions } from "./schemas";

export interface StagedRow {
  rowNumber: number;
  phone: string | null;
  name: string | null;
  attributes: Record<string, string | number | boolean> | null;
  /** The consent the row states; null leaves the contact's as it is. */
  consent: ConsentStatus | null;
  error: string | null;
  /** The record as CSV, kept for refused rows only (the rejected-rows download). */
  raw: string | null;
}

interface Mapping {
  phone: number;
  name: number | null;
  consent: { index: number; values: Map<string, ConsentStatus>; label: string } | null;
  attributes: { index: number; key: string; type: AttributeType; header: string }[];
  defaultCountry: CountryCode | undefined;
}

export type RowMapper = (record: string[], rowNumber: number) => StagedRow;

/**
 * The deprecated `opted_out` column as a consent value mapping: true/yes/1 unsubscribe, false/no/0
 * lift an unsubscribe an import made (the merge never lifts one made by reply, by hand or by the API).
 */
export const OPTED_OUT_VALUES: Readonly<Record<string, ConsentStatus>> = CONSENT_PRESETS.opted_out.values;

export { consentKey };

/** A consent cell through its value mapping: null for an empty cell, undefined for a value not in the mapping. */
export function parseConsentCell(cell: string, values: ReadonlyMap<string, ConsentStatus>): ConsentStatus | null | undefined {
  const key = consentKey(cell);
  if (key === "") return null;
  return values.get(key);
}

// A column of dates holds few distinct values (a million rows, a few thousand days): checking each
// once saves building a Date per cell.
const dateCache = new Map<string, ReturnType<typeof parseAttributeText>>();
function cachedDate(cell: string): ReturnType<typeof parseAttributeText> {
  let result = dateCache.get(cell);
  if (!result) {
    result = parseAttributeText("date", cell);
    if (dateCache.size >= 20_000) dateCache.clear();
    dateCache.set(cell, result);
  }
  return result;
}

export function rowMapper(options: Pick<ImportOptions, "columns" | "defaultCountry">): RowMapper {
  const mapping: Mapping = { phone: -1, name: null, consent: null, attributes: [], defaultCountry: (options.defaultCountry ?? undefined) as CountryCode | undefined };
  for (const column of options.columns) {
    const { target } = column;
    if (target.type === "phone") mapping.phone = column.index;
    else if (target.type === "name") mapping.name = column.index;
    else if (target.type === "opted_out") mapping.consent = { index: column.index, values: new Map(Object.entries(OPTED_OUT_VALUES)), label: "opted_out" };
    else if (target.type === "consent") {
      mapping.consent = { index: column.index, values: new Map(Object.entries(target.values).map(([value, status]) => [consentKey(value), status])), label: "consent" };
    }
    else if (target.type === "attribute") mapping.attributes.push({ index: column.index, key: target.key, type: target.attributeType, header: column.header });
  }
  const mappedCells = options.columns.flatMap((column) => {
    const { target } = column;
    if (target.type === "skip") return [];
    return [{ index: column.index, label: target.type === "attribute" ? target.key : target.type }];
  });

  return (record, rowNumber) => {
    // Checked before any rule quotes a cell in its reason: the reason and the row are stored as text.
    for (const { index, label } of mappedCells) {
      const cell = record[index];
      if (cell !== undefined && !isStorableText(cell)) return refusedRow(record, rowNumber, `${label}: contains a NUL character (U+0000), which cannot be stored`);
    }

    const phone = parsePhone(record[mapping.phone] ?? "", { defaultCountry: mapping.defaultCountry });
    if (!phone.ok) return refusedRow(record, rowNumber, `phone: ${phone.reason}`);

    let name: string | null = null;
    if (mapping.name !== null) {
      name = (record[mapping.name] ?? "").trim() || null;
      if (name !== null && name.length > MAX_CONTACT_NAME_LENGTH) return refusedRow(record, rowNumber, `name: longer than ${MAX_CONTACT_NAME_LENGTH} characters`);
    }

    let attributes: StagedRow["attributes"] = null;
    for (const attribute of mapping.attributes) {
      const cell = record[attribute.index] ?? "";
      if (cell.trim() === "") continue;
      const value = attribute.type === "date" ? cachedDate(cell) : parseAttributeText(attribute.type, cell);
      if (!value.ok) return refusedRow(record, rowNumber, `${attribute.key}: ${value.reason}`);
      (attributes ??= {})[attribute.key] = value.value;
    }

    let consent: ConsentStatus | null = null;
    if (mapping.consent !== null) {
      const cell = record[mapping.consent.index] ?? "";
      const parsed = parseConsentCell(cell, mapping.consent.values);
      if (parsed === undefined) {
        const known = [...mapping.consent.values.keys()].slice(0, 8).join(", ");
        return refusedRow(record, rowNumber, `${mapping.consent.label}: "${cell.trim().slice(0, 40)}" is not one of the mapped values (${known}); map it or leave the cell empty`);
      }
      consent = parsed;
    }
    return { rowNumber, phone: phone.phone, name, attributes, consent, error: null, raw: null };
  };
}

/** Cells a spreadsheet would run as a formula get a leading apostrophe; phone numbers and plain numbers keep their sign. */
const FORMULA = /^(?:[=@\t\r]|[+-](?![\d\s().,-]*$))/;

/** A refused row, kept as it was in the file (formula cells neutralised) for the rejected-rows download. */
function refusedRow(record: string[], rowNumber: number, error: string): StagedRow {
  return { rowNumber, phone: null, name: null, attributes: null, consent: null, error, raw: toStorableText(csvLine(record)) };
}

/** A row refused for its length: none of it was kept, so its rejected line holds only its number and reason. */
export function tooLongRow(rowNumber: number, maxChars: number, unclosedQuote: boolean): StagedRow {
  const reason = `row: longer than ${maxChars.toLocaleString("en-US")} characters`;
  const error = unclosedQuote ? `${reason}; a quote opened in it is never closed, so it runs to the end of the file` : reason;
  return { rowNumber, phone: null, name: null, attributes: null, consent: null, error, raw: null };
}

/** One CSV line (RFC 4180 quoting, no line break), formula cells neutralised. */
export function csvLine(record: string[]): string {
  return Papa.unparse([record], { newline: "", escapeFormulae: FORMULA });
}

/**
 * The mapping must describe the file it is applied to: each mapped column's header has to be the
 * file's header at that index (a wizard mapping applied to another export would silently shift
 * every value).
 */
export function headerMismatches(options: Pick<ImportOptions, "columns">, header: string[]): string[] {
  const problems: string[] = [];
  for (const column of options.columns) {
    if (column.target.type === "skip") continue;
    const actual = header[column.index];
    if (actual === undefined) problems.push(`column ${column.index + 1} ("${column.header}") is not in the file, which has ${header.length} columns`);
    else if (actual.trim() !== column.header.trim()) problems.push(`column ${column.index + 1} is "${actual}" in the file, not "${column.header}"`);
  }
  return problems;
}

/**
 * The default mapping of a CSV sent without one: phone, name, consent (CSV_BODY_CONSENT_VALUES) and the
 * deprecated opted_out by header, every other column a string attribute.
 */
export function defaultColumns(header: string[]): { columns: ImportOptions["columns"]; problems: string[] } {
  const problems: string[] = [];
  const normalized = header.map((h) => h.trim().toLowerCase());
  if (!normalized.includes("phone")) problems.push('the header has no "phone" column');
  const columns = header.map((h, index) => {
    const key = normalized[index]!;
    if (key === "phone") return { index, header: h, target: { type: "phone" as const } };
    if (key === "name") return { index, header: h, target: { type: "name" as const } };
    if (key === "opted_out") return { index, header: h, target: { type: "opted_out" as const } };
    if (key === "consent") return { index, header: h, target: { type: "consent" as const, values: { ...CSV_BODY_CONSENT_VALUES } } };
    return { index, header: h, target: { type: "attribute" as const, key: h.trim(), attributeType: "string" as const } };
  });
  return { columns, problems };
}
