import { getCountries, getCountryCallingCode, type CountryCode } from "libphonenumber-js/max";

export interface CountryOption {
  code: CountryCode;
  label: string;
}

let cached: CountryOption[] | null = null;

/** Every country libphonenumber knows, by English name, with its calling code. */
export function countryOptions(): CountryOption[] {
  if (cached) return cached;
  const names = new Intl.DisplayNames(["en"], { type: "region" });
  cached = getCountries()
    .map((code) => ({ code, label: `${names.of(code) ?? code} (+${getCountryCallingCode(code)})` }))
    .sort((a, b) => a.label.localeCompare(b.label));
  return cached;
}
