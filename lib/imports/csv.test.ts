import Papa from "papaparse";
import { describe, expect, it } from "vitest";
import { CsvRecordReader, MAX_RECORD_CHARS, RecordTooLong, csvRecords, type CsvRecord } from "./csv";

const TOO_LONG = new RecordTooLong();

async function* pieces(text: string, size: number): AsyncGenerator<string> {
  for (let i = 0; i < text.length; i += size) yield text.slice(i, i + size);
}

async function all(text: string, size: number, maxRecordChars?: number): Promise<CsvRecord[]> {
  const out: CsvRecord[] = [];
  for await (const batch of csvRecords(pieces(text, size), maxRecordChars)) out.push(...batch);
  return out;
}

const whole = (text: string) => Papa.parse<string[]>(text, { skipEmptyLines: "greedy" }).data;
const SIZES = [1, 2, 3, 7, 16, 64, 1000];

/** Feeds `chunkCount` chunks to a reader, checking after each one that it holds no more than the cap and a line break. */
function feed(reader: CsvRecordReader, chunks: Iterable<string>): { records: CsvRecord[]; mostHeld: number } {
  const records: CsvRecord[] = [];
  let mostHeld = 0;
  for (const chunk of chunks) {
    records.push(...reader.push(chunk));
    mostHeld = Math.max(mostHeld, reader.bufferedChars);
  }
  records.push(...reader.end());
  return { records, mostHeld };
}

function* repeated(first: string, chunk: string, times: number, last: string): Generator<string> {
  yield first;
  for (let i = 0; i < times; i++) yield chunk;
  yield last;
}

describe("streaming CSV records", () => {
  it("gives the same records as parsing the whole text, whatever the chunk size", async () => {
    const texts = [
      'phone,name,note\r\n+447911123456,"Lee, Ann","line one\r\nline two"\r\n\r\n+447911123457,Bo,"he said ""hi"""\r\n+447911123458,Émilie 🙂,\r\n+447911123459,"last",no newline at the end',
      // Quotes that open no quoted field, a quote inside a quoted field that does not close it, spaces after a closing quote.
      'phone,name\n+447911123456,5" screen\n+447911123457,"ab"c"\n+447911123458,"Ann"  \n"+447911123459" ,x\n+447911123460,"say ""hi"", then\ngo"\n',
      // Another delimiter, and CR line breaks.
      "phone;name;city\r+447911123456;Ann;\"Porto; north\"\r+447911123457;Bo;Faro\r",
      "phone\n+447911123456\n\n\n+447911123457",
      // Lines without quotes after the first records (read without papaparse once the delimiter is known), blank ones among them.
      `phone,name,city\n${Array.from({ length: 50 }, (_, i) => `+4479111234${String(i).padStart(2, "0")},Name ${i},Porto`).join("\n")}\n,,\n \t, \u00a0\n  \n+447911123499,,\n,x,\nÉmilie 🙂,a|b,;\n`,
      `phone|name\n+447911123456|Ann\n${"+447911123457|Bo\n".repeat(40)}||\n | \n+447911123458|a,b|c\n`,
    ];
    for (const text of texts) {
      const expected = whole(text);
      for (const size of SIZES) expect(await all(text, size), `${JSON.stringify(text.slice(0, 30))} in chunks of ${size}`).toEqual(expected);
    }
  });

  it("gives a record over the cap as RecordTooLong and reads on, whatever the chunk size", async () => {
    const cap = 40;
    const fits = "x".repeat(cap - 4);
    const over = "y".repeat(cap - 2);
    const text = `phone,note\r\n+1,${fits}\r\n+2,${over}\r\n+3,"quoted\r\n${"z".repeat(cap)}"\r\n+4,short\r\n+5,${over}`;
    for (const size of SIZES) {
      expect(await all(text, size, cap), `chunks of ${size}`).toEqual([["phone", "note"], ["+1", fits], TOO_LONG, TOO_LONG, ["+4", "short"], TOO_LONG]);
    }
    expect(await all(`phone,note\n+1,${fits}\n`, 5, cap)).toEqual([["phone", "note"], ["+1", fits]]);
  });

  it("keeps a record of exactly the cap and refuses one character more", async () => {
    const cell = (length: number) => "a".repeat(length - "+1,".length);
    const text = `phone,note\n+1,${cell(MAX_RECORD_CHARS)}\n+1,${cell(MAX_RECORD_CHARS + 1)}\n+2,after\n`;
    expect(await all(text, 4096)).toEqual([["phone", "note"], ["+1", cell(MAX_RECORD_CHARS)], TOO_LONG, ["+2", "after"]]);
  });

  it("reads a 60 MB line holding at most the cap and a line break, quoted or not", () => {
    const chunk = "x".repeat(64 * 1024);
    const times = (60 * 1024 * 1024) / chunk.length;
    const unquoted = feed(new CsvRecordReader(), repeated("phone,note\n+1,", chunk, times, "\n+2,after\n"));
    expect(unquoted.records).toEqual([["phone", "note"], TOO_LONG, ["+2", "after"]]);
    expect(unquoted.mostHeld).toBeLessThanOrEqual(MAX_RECORD_CHARS + 2);

    const quotedChunk = `${"x".repeat(1000)}""\r\n, ${"y".repeat(1000)}`.repeat(30);
    const quoted = feed(new CsvRecordReader(), repeated('phone,note\r\n+1,"', quotedChunk, 1000, '"   \r\n+2,after'));
    expect(quoted.records).toEqual([["phone", "note"], TOO_LONG, ["+2", "after"]]);
    expect(quoted.mostHeld).toBeLessThanOrEqual(MAX_RECORD_CHARS + 2);

    // A quote that might close its field, followed by more spaces than the cap.
    const spaces = feed(new CsvRecordReader(), repeated('phone,note\n+1,"a"', " ".repeat(50_000), 10, ",b\n+2,after\n"));
    expect(spaces.records).toEqual([["phone", "note"], TOO_LONG, ["+2", "after"]]);
    expect(spaces.mostHeld).toBeLessThanOrEqual(MAX_RECORD_CHARS + 2);

    // A file that ends inside the long line.
    const unfinished = feed(new CsvRecordReader(), repeated("phone,note\n+1,", chunk, 4, ""));
    expect(unfinished.records).toEqual([["phone", "note"], TOO_LONG]);

    // A quote that is never closed: the rest of the file is one record.
    const unclosed = feed(new CsvRecordReader(), repeated('phone,note\n+1,"', "x,y\n".repeat(16 * 1024), 4, ""));
    expect(unclosed.records).toEqual([["phone", "note"], new RecordTooLong(true)]);
    expect(unclosed.mostHeld).toBeLessThanOrEqual(MAX_RECORD_CHARS + 2);
  });
});
