// Streaming CSV parsing: the text is cut after the last line break that is outside quotes, and each
// complete part is parsed by papaparse in one call. Papaparse's own Node stream mode yields one
// record at a time through a stream in object mode, about six times slower on a million rows.
import Papa from "papaparse";

/** The index just after the last line break outside quoted fields (0 when there is none). */
export function completeRecordsEnd(text: string): number {
  let end = 0;
  let inQuotes = false;
  let nextBreak = text.indexOf("\n");
  let from = 0;
  for (;;) {
    const quote = text.indexOf('"', from);
    const limit = quote === -1 ? text.length : quote;
    while (nextBreak !== -1 && nextBreak < limit) {
      if (!inQuotes) end = nextBreak + 1;
      nextBreak = text.indexOf("\n", nextBreak + 1);
    }
    if (quote === -1) return end;
    inQuotes = !inQuotes;
    from = quote + 1;
  }
}

/** Batches of records (arrays of cells) from text chunks; blank lines are skipped. */
export async function* csvRecords(chunks: AsyncIterable<string>): AsyncGenerator<string[][]> {
  let carry = "";
  for await (const chunk of chunks) {
    const text = carry + chunk;
    const end = completeRecordsEnd(text);
    carry = text.slice(end);
    if (end > 0) yield parse(text.slice(0, end));
  }
  if (carry.trim() !== "") yield parse(carry);
}

function parse(text: string): string[][] {
  const result = Papa.parse<string[]>(text, { skipEmptyLines: "greedy" });
  return result.data;
}
