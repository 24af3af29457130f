import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { completeRecordsEnd, csvRecords } from "./csv";

async function* pieces(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function all(text: string, size: number): Promise<string[][]> {
  const out: string[][] = [];
  for await (const batch of csvRecords(pieces(text, size))) out.push(...batch);
  return out;
}

describe("streaming CSV records", () => {
  it("cuts only after line breaks outside quotes", () => {
    expect(completeRecordsEnd("a,b\nc,d")).toBe(4);
    expect(completeRecordsEnd('a,"b\nc",d\ne')).toBe(10);
    expect(completeRecordsEnd('a,"b\nc')).toBe(0);
    expect(completeRecordsEnd('a,"say ""hi""\n",x\n')).toBe(18);
    expect(completeRecordsEnd("no break")).toBe(0);
  });

  it("gives the same records as parsing the whole text, whatever the chunk size", async () => {
    const text =
      'phone,name,note\r\n+447911123456,"Lee, Ann","line one\r\nline two"\r\n\r\n+447911123457,Bo,"he said ""hi"""\r\n+447911123458,Émilie 🙂,\r\n+447911123459,"last",no newline at the end';
    const whole = Papa.parse<string[]>(text, { skipEmptyLines: "greedy" }).data;
    expect(whole).toHaveLength(5);
    for (const size of [1, 2, 3, 7, 16, 64, 1000]) expect(await all(text, size), `chunks of ${size}`).toEqual(whole);
  });
});
