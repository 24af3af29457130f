import examples from "libphonenumber-js/examples.mobile.json";
import { getCountries, getCountryCallingCode, parsePhoneNumberFromString, type CountryCode } from "libphonenumber-js/max";
import { describe, expect, it } from "vitest";
import { isValidE164Fast, NO_COUNTRY_CODE_REASON, parsePhone, SCIENTIFIC_NOTATION_REASON, splitPhoneList } from "./phone";

const ok = (phone: string) => ({ ok: true, phone });

describe("splitPhoneList", () => {
  it("splits on lines, commas and semicolons, never on the spaces inside a number", () => {
    expect(splitPhoneList("+34 612 34 56 78, +16466204510")).toEqual(["+34 612 34 56 78", "+16466204510"]);
    expect(splitPhoneList("+1 (415) 555-2671\n+44 20 7946 0958;\r\n +34.612.34.56.78 ,,")).toEqual(["+1 (415) 555-2671", "+44 20 7946 0958", "+34.612.34.56.78"]);
    expect(splitPhoneList("+16466204510, +16466204510")).toEqual(["+16466204510"]);
    expect(splitPhoneList(" , ; \n")).toEqual([]);
  });
});

describe("parsePhone", () => {
  it("accepts E.164 and international formatting with + or 00", () => {
    expect(parsePhone("+14155552671")).toEqual(ok("+14155552671"));
    expect(parsePhone("  +1 (415) 555-2671 ")).toEqual(ok("+14155552671"));
    expect(parsePhone("+44 7911.123.456")).toEqual(ok("+447911123456"));
    expect(parsePhone("0044 7911 123456")).toEqual(ok("+447911123456"));
    expect(parsePhone("+49 30 901820")).toEqual(ok("+4930901820"));
  });

  it("refuses a number without a country code unless a default country is picked", () => {
    expect(parsePhone("07911 123456")).toEqual({ ok: false, reason: NO_COUNTRY_CODE_REASON });
    expect(parsePhone("4155552671")).toEqual({ ok: false, reason: NO_COUNTRY_CODE_REASON });
    // Country code digits without + are not taken as one: that would be a guess.
    expect(parsePhone("447911123456")).toEqual({ ok: false, reason: NO_COUNTRY_CODE_REASON });
    expect(parsePhone("07911 123456", { defaultCountry: "GB" })).toEqual(ok("+447911123456"));
    expect(parsePhone("(415) 555-2671", { defaultCountry: "US" })).toEqual(ok("+14155552671"));
    // The default country never overrides a written country code.
    expect(parsePhone("+4930901820", { defaultCountry: "US" })).toEqual(ok("+4930901820"));
  });

  it("refuses spreadsheet damage instead of repairing it", () => {
    for (const damaged of ["4.41E+11", "4,41E+11", "4.41e+11", "4E11", "-1.2E+10"]) {
      expect(parsePhone(damaged, { defaultCountry: "GB" }), damaged).toEqual({ ok: false, reason: SCIENTIFIC_NOTATION_REASON });
    }
  });

  it("suggests the international reading of a number that carries its country code without the +", () => {
    const result = parsePhone("34624011493", { defaultCountry: "US" });
    expect(result).toEqual({ ok: false, reason: expect.stringContaining("with a + it is +34 624 01 14 93 (Spain)") });
    expect(parsePhone("555", { defaultCountry: "US" })).toEqual({ ok: false, reason: expect.not.stringContaining("with a +") });
  });

  it("says why a number is invalid", () => {
    expect(parsePhone("")).toEqual({ ok: false, reason: "no phone number" });
    expect(parsePhone("call me")).toMatchObject({ ok: false, reason: expect.stringContaining("not a phone number") });
    expect(parsePhone("+1 415 555 2671 ext 5")).toMatchObject({ ok: false, reason: expect.stringContaining("not a phone number") });
    expect(parsePhone("+999 1234567")).toEqual({ ok: false, reason: "unknown country calling code" });
    expect(parsePhone("+44 79")).toEqual({ ok: false, reason: "too short to be a phone number" });
    expect(parsePhone("0791112345678901", { defaultCountry: "GB" })).toEqual({ ok: false, reason: "too long to be a phone number for GB" });
    expect(parsePhone("+1 011 555 2671")).toEqual({ ok: false, reason: "not a valid phone number" });
    expect(parsePhone("123 4567", { defaultCountry: "GB" })).toEqual({ ok: false, reason: "not a valid phone number for GB" });
  });
});

describe("the E.164 fast path", () => {
  it("never accepts what the full parser refuses, and accepts the valid examples of every country", () => {
    let seed = 42;
    const random = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    let fastAccepted = 0;
    let checked = 0;
    for (const country of getCountries()) {
      const code = getCountryCallingCode(country);
      const example = (examples as Record<string, string>)[country];
      const candidates: string[] = [];
      if (example) {
        const e164 = parsePhoneNumberFromString(example, country as CountryCode)!.number;
        candidates.push(e164);
        expect(isValidE164Fast(e164), `${country} example ${e164}`).toBe(true);
        // Mutations of a valid number: a digit changed, one added, one dropped.
        for (let i = 0; i < 30; i++) {
          const digits = e164.slice(1).split("");
          const at = code.length + Math.floor(random() * (digits.length - code.length));
          digits[at] = String(Math.floor(random() * 10));
          candidates.push(`+${digits.join("")}`);
        }
        candidates.push(`${e164}7`, e164.slice(0, -1));
      }
      for (let i = 0; i < 30; i++) {
        const length = 4 + Math.floor(random() * 10);
        candidates.push(`+${code}${Array.from({ length }, () => Math.floor(random() * 10)).join("")}`);
      }
      for (const candidate of candidates) {
        if (!/^\+[1-9]\d{6,14}$/.test(candidate)) continue;
        checked++;
        const parsed = parsePhoneNumberFromString(candidate);
        const libraryValid = parsed !== undefined && parsed.isValid() && parsed.number === candidate;
        if (isValidE164Fast(candidate)) {
          fastAccepted++;
          expect(libraryValid, candidate).toBe(true);
        }
        // The full parser may normalise (a national prefix written after the country code goes).
        expect(parsePhone(candidate), candidate).toEqual(parsed?.isValid() ? ok(parsed.number) : { ok: false, reason: expect.any(String) });
      }
    }
    expect(checked).toBeGreaterThan(10_000);
    expect(fastAccepted).toBeGreaterThan(1_000);
  });
});
