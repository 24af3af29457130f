import { describe, expect, it } from "vitest";
import { lacksCountryCode } from "./csv-scan";
import { attributeKeyFor, consentChoice, guessColumns, guessType, presetFor, subscribesContacts, toColumnTargets, validateColumns } from "./mapping";

describe("import column guesses", () => {
  it("maps phone, name and opted-out headers once each, existing attributes by key, the rest to typed new attributes", () => {
    const headers = ["Mobile", "Full Name", "city", "Visits", "Joined on", "Unsubscribed", "Phone"];
    const rows = [["+1415", "Ana", "Lisbon", "3", "2026-01-02", "false", "+1"]];
    const choices = guessColumns(headers, rows, [{ key: "city", type: "string" }]);
    expect(choices).toEqual([
      { kind: "phone" },
      { kind: "name" },
      { kind: "existing", key: "city" },
      { kind: "new", key: "visits", attributeType: "number" },
      { kind: "new", key: "joined_on", attributeType: "date" },
      consentChoice("opted_out"),
      { kind: "new", key: "phone", attributeType: "string" },
    ]);
    expect(choices[5]).toMatchObject({ values: { true: "unsubscribed", false: "unknown" } });
  });

  it("maps an opt-in column to consent with the preset its values fit, and knows when it subscribes contacts", () => {
    const choices = guessColumns(["Phone", "Opt-in"], [["+1", "Yes"], ["+2", "no"]], []);
    expect(choices[1]).toEqual({ kind: "consent", preset: "yes_no", values: { yes: "subscribed", y: "subscribed", no: "unknown", n: "unknown" } });
    expect(subscribesContacts(choices)).toBe(true);
    expect(subscribesContacts([{ kind: "phone" }, consentChoice("opted_out")])).toBe(false);
    expect(presetFor(["TRUE", "false"])).toBe("true_false");
    expect(presetFor(["1", "0", ""])).toBe("one_zero");
    expect(presetFor(["Subscribed", "unknown"])).toBe("subscribed");
    expect(presetFor(["sí", "no"])).toBe("custom");
    expect(toColumnTargets(["Phone", "Opt-in"], choices, [])[1]).toEqual({ index: 1, header: "Opt-in", target: { type: "consent", values: choices[1]!.kind === "consent" ? choices[1]!.values : {} } });
    expect(validateColumns([{ kind: "phone" }, { kind: "consent", preset: "custom", values: {} }], []).columns[1]).toMatch(/at least one value/);
  });

  it("turns headers into identifiers and values into types", () => {
    expect(attributeKeyFor(" First purchase (EUR) ")).toBe("first_purchase_eur");
    expect(attributeKeyFor("2nd city")).toBe("_2nd_city");
    expect(guessType(["yes", "No", ""])).toBe("boolean");
    expect(guessType(["1", "x"])).toBe("string");
    expect(guessType([])).toBe("string");
  });

  it("reports a missing phone column, repeated targets, bad keys and keys that already exist", () => {
    const existing = [{ key: "city", type: "string" as const }];
    expect(validateColumns([{ kind: "name" }], existing).overall).toMatch(/phone/i);
    const { columns, overall } = validateColumns(
      [
        { kind: "phone" },
        { kind: "phone" },
        { kind: "new", key: "city", attributeType: "string" },
        { kind: "new", key: "9lives", attributeType: "string" },
        { kind: "new", key: "name", attributeType: "string" },
        { kind: "existing", key: "city" },
      ],
      existing,
    );
    expect(overall).toBeNull();
    expect(Object.keys(columns).map(Number)).toEqual([1, 2, 3, 4, 5]);
    expect(columns[2]).toMatch(/already exists/);
  });

  it("sends every column with its index, header and target; existing attributes keep their stored type", () => {
    const targets = toColumnTargets(["p", "n", "c", "x"], [{ kind: "phone" }, { kind: "skip" }, { kind: "existing", key: "visits" }, { kind: "new", key: " vip ", attributeType: "boolean" }], [{ key: "visits", type: "number" }]);
    expect(targets).toEqual([
      { index: 0, header: "p", target: { type: "phone" } },
      { index: 1, header: "n", target: { type: "skip" } },
      { index: 2, header: "c", target: { type: "attribute", key: "visits", attributeType: "number" } },
      { index: 3, header: "x", target: { type: "attribute", key: "vip", attributeType: "boolean" } },
    ]);
  });

  it("counts a number as lacking a country code only when it is written without +, and not spreadsheet damage", () => {
    expect(lacksCountryCode("0612345678")).toBe(true);
    expect(lacksCountryCode(" +33612345678 ")).toBe(false);
    expect(lacksCountryCode("")).toBe(false);
    expect(lacksCountryCode(undefined)).toBe(false);
    expect(lacksCountryCode("4.41E+11")).toBe(false);
    expect(lacksCountryCode("4,41E+11")).toBe(false);
    expect(lacksCountryCode("0033 6 12 34 56 78")).toBe(false);
    expect(lacksCountryCode("(06) 12-34.56/78")).toBe(true);
    expect(lacksCountryCode("call me")).toBe(false);
  });
});
