// The one phone rule for contacts: anything a person or a spreadsheet may write becomes E.164 or a
// reason. A number without a country code is never guessed into one: it needs an explicit default
// country. Spreadsheet damage (`4.41E+11`) has lost digits and is refused, never repaired.
import { z } from "zod";
import { getCountries, Metadata, parsePhoneNumberFromString, validatePhoneNumberLength, type CountryCode } from "libphonenumber-js/max";

export type { CountryCode } from "libphonenumber-js/max";

const COUNTRIES = new Set<string>(getCountries());

/** A default country for numbers written without a country code: an ISO 3166-1 alpha-2 code the phone rule knows. */
export function countryCodeSchema(message: string) {
  return z.string().refine((code) => COUNTRIES.has(code), { message });
}

export type ParsedPhone = { ok: true; phone: string } | { ok: false; reason: string };

export const NO_COUNTRY_CODE_REASON = "no country code; pick a default country or write the number with + and its country code";
export const SCIENTIFIC_NOTATION_REASON =
  "a spreadsheet turned this number into scientific notation (like 4.41E+11) and lost its last digits; export the column as text";

const SCIENTIFIC = /^[+-]?\d+(?:[.,]\d+)?e[+-]?\d+$/i;
const PHONE_CHARACTERS = /^\+?[\d\s().\-/]+$/;
/** The shape of E.164: `+`, a country code that does not start with 0, 7 to 15 digits in all. */
export const E164 = /^\+[1-9]\d{6,14}$/;

/** True for a real, dialable number written in E.164 (`+` country code and number, nothing else). */
export function isE164PhoneNumber(value: string): boolean {
  if (!E164.test(value)) return false;
  if (isValidE164Fast(value)) return true;
  const parsed = parsePhoneNumberFromString(value, { extract: false });
  return parsed !== undefined && parsed.isValid() && parsed.number === value;
}

export const e164PhoneSchema = z
  .string({ error: "Expected the phone number as a string in E.164 format, such as +14155552671." })
  .refine(isE164PhoneNumber, {
    message: "Not a valid phone number in E.164 format (a + and the country code, no spaces), such as +14155552671.",
  });

/**
 * Several numbers typed or pasted into one box: one per line, or separated by commas or semicolons.
 * Spaces stay inside a number (`+34 612 34 56 78` is one number); duplicates are dropped.
 */
export function splitPhoneList(text: string): string[] {
  return [...new Set(text.split(/[,;\r\n]+/).map((phone) => phone.trim()).filter(Boolean))];
}

export function parsePhone(raw: string, options: { defaultCountry?: CountryCode | null } = {}): ParsedPhone {
  const text = raw.trim();
  if (text === "") return { ok: false, reason: "no phone number" };
  if (E164.test(text) && isValidE164Fast(text)) return { ok: true, phone: text };
  if (SCIENTIFIC.test(text)) return { ok: false, reason: SCIENTIFIC_NOTATION_REASON };
  if (!PHONE_CHARACTERS.test(text)) return { ok: false, reason: "not a phone number: only digits, spaces, dots, dashes, parentheses and a leading + are allowed" };

  const digits = text.replace(/\D/g, "");
  let international: string | null = null;
  if (text.startsWith("+")) international = `+${digits}`;
  else if (digits.startsWith("00")) international = `+${digits.slice(2)}`;
  if (international === null && !options.defaultCountry) return { ok: false, reason: NO_COUNTRY_CODE_REASON };

  const input = international ?? digits;
  const country = international === null ? options.defaultCountry ?? undefined : undefined;
  const parsed = country ? parsePhoneNumberFromString(input, { defaultCountry: country, extract: false }) : parsePhoneNumberFromString(input, { extract: false });
  if (parsed?.isValid()) return { ok: true, phone: parsed.number };
  const reason = invalidReason(input, country);
  const suggestion = country ? asInternational(digits) : null;
  return { ok: false, reason: suggestion ? `${reason}; with a + it is ${suggestion}: was the country code written without its +?` : reason };
}

let regionNames: Intl.DisplayNames | undefined;

/** `34624011493` read with a `+` in front, when that makes a valid number: "+34 624 01 14 93 (Spain)". */
function asInternational(digits: string): string | null {
  const parsed = parsePhoneNumberFromString(`+${digits}`, { extract: false });
  if (!parsed?.isValid()) return null;
  regionNames ??= new Intl.DisplayNames(["en"], { type: "region" });
  const country = parsed.country ? regionNames.of(parsed.country) : undefined;
  return `${parsed.formatInternational()}${country ? ` (${country})` : ""}`;
}

function invalidReason(input: string, country: CountryCode | undefined): string {
  const where = country ? `for ${country}` : "";
  const length = country ? validatePhoneNumberLength(input, country) : validatePhoneNumberLength(input);
  if (length === "INVALID_COUNTRY") return "unknown country calling code";
  if (length === "TOO_SHORT" || length === "NOT_A_NUMBER") return `too short to be a phone number${where ? ` ${where}` : ""}`;
  if (length === "TOO_LONG") return `too long to be a phone number${where ? ` ${where}` : ""}`;
  return `not a valid phone number${where ? ` ${where}` : ""}`;
}

// Fast path for input that is already E.164 (a million rows of an export): the same checks the
// library makes — the country of the calling code (leading digits decide between countries that
// share one), its national number pattern, then a number type with its lengths — with the regular
// expressions compiled once instead of on every call. A miss falls through to the full parser, so
// this can only make a valid number faster, never an invalid one valid (phone.test.ts compares both).

interface NumberingPlanApi {
  leadingDigits(): string | undefined;
  nationalNumberPattern(): string;
  hasTypes(): boolean;
  type(type: string): { pattern(): string; possibleLengths(): number[] | undefined } | undefined;
}
interface MetadataApi {
  selectNumberingPlan(country: string): void;
  numberingPlan: NumberingPlanApi;
  getCountryCodesForCallingCode(callingCode: string): string[] | undefined;
  isNonGeographicCallingCode(callingCode: string): boolean;
}

interface CompiledPlan {
  leadingDigits: RegExp | null;
  national: RegExp;
  /** Null when the plan has no per-type patterns: the national pattern decides alone. */
  types: { pattern: RegExp; lengths: number[] | undefined }[] | null;
}

const TYPE_ORDER = ["FIXED_LINE", "MOBILE", "PREMIUM_RATE", "TOLL_FREE", "SHARED_COST", "VOIP", "PERSONAL_NUMBER", "PAGER", "UAN", "VOICEMAIL"];
const plansByCallingCode = new Map<string, CompiledPlan[] | null>();
let metadata: MetadataApi | null = null;

function compile(meta: MetadataApi, country: string): CompiledPlan {
  meta.selectNumberingPlan(country);
  const plan = meta.numberingPlan;
  const leading = plan.leadingDigits();
  const types = plan.hasTypes()
    ? TYPE_ORDER.flatMap((name) => {
        const type = plan.type(name);
        const pattern = type?.pattern();
        return pattern ? [{ pattern: new RegExp(`^(?:${pattern})$`), lengths: type!.possibleLengths() }] : [];
      })
    : null;
  return { leadingDigits: leading ? new RegExp(`^(?:${leading})`) : null, national: new RegExp(`^(?:${plan.nationalNumberPattern()})$`), types };
}

function plansFor(callingCode: string): CompiledPlan[] | null {
  let plans = plansByCallingCode.get(callingCode);
  if (plans !== undefined) return plans;
  metadata ??= new (Metadata as unknown as new () => MetadataApi)();
  const countries = metadata.isNonGeographicCallingCode(callingCode) ? null : metadata.getCountryCodesForCallingCode(callingCode);
  plans = countries && countries.length > 0 ? countries.map((country) => compile(metadata!, country)) : null;
  plansByCallingCode.set(callingCode, plans);
  return plans;
}

function validFor(plan: CompiledPlan, national: string): boolean {
  if (!plan.national.test(national)) return false;
  if (!plan.types) return true;
  return plan.types.some((type) => (!type.lengths || type.lengths.includes(national.length)) && type.pattern.test(national));
}

/** True only when the E.164 text is certainly valid; false means "ask the full parser". */
export function isValidE164Fast(e164: string): boolean {
  for (let length = 1; length <= 3; length++) {
    const plans = plansFor(e164.slice(1, 1 + length));
    if (!plans) continue;
    const national = e164.slice(1 + length);
    if (plans.length === 1) return validFor(plans[0]!, national);
    // Countries sharing a calling code: the first whose leading digits match decides; otherwise the
    // first for which the number has a type, as the library chooses.
    for (const plan of plans) {
      if (plan.leadingDigits) {
        if (plan.leadingDigits.test(national)) return validFor(plan, national);
      } else if (validFor(plan, national)) {
        return true;
      }
    }
    return false;
  }
  return false;
}
