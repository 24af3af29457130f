// Streaming CSV parsing: each chunk of text is scanned once for the ends of records (line breaks
// outside quoted fields, with papaparse's quoting rules), and the complete records of a chunk are
// parsed by papaparse in one call. Papaparse's own Node stream mode yields one record at a time
// through a stream in object mode, about six times slower on a million rows.
//
// A record is capped: one longer than `maxRecordChars` is scanned to its end but not kept, and comes
// out as a `RecordTooLong`. What the reader holds is at most the cap plus the chunk being read,
// whatever the length of a line.
import Papa from "papaparse";

/** The longest record (one row, its line break excluded) that is read: 64 Ki characters. */
export const MAX_RECORD_CHARS = 64 * 1024;

/** Stands for a record longer than the cap, in the place of its cells. */
export class RecordTooLong {
  /** The record ran to the end of the file inside a quoted field: a quote opened in it was never closed. */
  constructor(readonly unclosedQuote = false) {}
}
export type CsvRecord = string[] | RecordTooLong;

/** The delimiters papaparse guesses among; the one it picks for the first records is used for the rest. */
const GUESSED_DELIMITERS = [",", "\t", "|", ";", Papa.RECORD_SEP, Papa.UNIT_SEP];
const QUOTE = '"';

export class CsvRecordReader {
  /** Unparsed text from the start of the current record (while skipping one, only what is left to scan). */
  private text = "";
  /** Where scanning resumes in `text`. */
  private position = 0;
  /** The start of the current record in `text` (-1 while skipping a record too long to keep). */
  private recordStart = 0;
  private inQuotes = false;
  /** The character just before `text`, once what preceded it was dropped. */
  private before = "";
  /** `\n` (LF and CRLF files) or `\r` (CR files), from the first line break. */
  private lineBreak: "\n" | "\r" | null = null;
  private delimiter: string | null = null;
  /** A line papaparse's `skipEmptyLines: "greedy"` skips: only whitespace and delimiters. */
  private blank: RegExp | null = null;

  constructor(private readonly maxRecordChars = MAX_RECORD_CHARS) {}

  /** Characters held between chunks: at most the cap and a line break. */
  get bufferedChars(): number {
    return this.text.length;
  }

  /** The records the chunk completes. */
  push(chunk: string): CsvRecord[] {
    this.text += chunk;
    return this.drain(false);
  }

  /** The records left at the end of the input (the last one may lack its line break). */
  end(): CsvRecord[] {
    return this.drain(true);
  }

  private drain(final: boolean): CsvRecord[] {
    const out: CsvRecord[] = [];
    const text = this.text;
    let runStart = this.recordStart;
    const endRecord = (breakAt: number, breakLength: number) => {
      const next = breakAt + breakLength;
      if (this.recordStart === -1) {
        out.push(new RecordTooLong());
      } else if (breakAt - this.recordStart - (text[breakAt - 1] === "\r" ? 1 : 0) > this.maxRecordChars) {
        this.parseInto(out, text.slice(runStart, this.recordStart));
        out.push(new RecordTooLong());
      } else {
        this.recordStart = next;
        return;
      }
      runStart = next;
      this.recordStart = next;
    };

    let position = this.position;
    let nextQuote = -2;
    let nextBreak = -2;
    while (position < text.length) {
      if (nextQuote !== -1 && nextQuote < position) nextQuote = text.indexOf(QUOTE, position);
      if (this.inQuotes) {
        if (nextQuote === -1) {
          position = text.length;
          break;
        }
        // In a quoted field a quote closes it only before a delimiter or a line break (spaces
        // between are allowed); `""` is a quote; any other quote is taken as text.
        let after = nextQuote + 1;
        if (text[after] === QUOTE) {
          position = after + 1;
          continue;
        }
        while (text[after] === " ") after++;
        if (after >= text.length) {
          if (!final) {
            position = nextQuote;
            break;
          }
          this.inQuotes = false;
          position = text.length;
          break;
        }
        const next = text[after]!;
        if (next === "\n" || next === "\r" || this.isDelimiter(next)) {
          this.inQuotes = false;
          position = after;
        } else {
          position = nextQuote + 1;
        }
        continue;
      }
      if (nextBreak !== -1 && nextBreak < position) nextBreak = this.findBreak(text, position);
      if (nextQuote !== -1 && (nextBreak === -1 || nextQuote < nextBreak)) {
        // A quote opens a quoted field only as the field's first character.
        if (nextQuote === this.recordStart || this.isDelimiter(nextQuote > 0 ? text[nextQuote - 1]! : this.before)) this.inQuotes = true;
        position = nextQuote + 1;
        continue;
      }
      if (nextBreak === -1) {
        position = text.length;
        break;
      }
      let breakLength = 1;
      if (text[nextBreak] === "\r") {
        if (nextBreak + 1 >= text.length && !final) {
          position = nextBreak;
          break;
        }
        if (text[nextBreak + 1] === "\n") breakLength = 2;
        this.lineBreak ??= breakLength === 2 ? "\n" : "\r";
      } else {
        this.lineBreak ??= "\n";
      }
      endRecord(nextBreak, breakLength);
      position = nextBreak + breakLength;
    }

    if (final) {
      if (this.recordStart === -1) {
        out.push(new RecordTooLong(this.inQuotes));
      } else if (text.length - this.recordStart > this.maxRecordChars && text.slice(this.recordStart).trim() !== "") {
        this.parseInto(out, text.slice(runStart, this.recordStart));
        out.push(new RecordTooLong(this.inQuotes));
      } else {
        this.parseInto(out, text.slice(runStart));
      }
      this.text = "";
      this.position = this.recordStart = 0;
      this.inQuotes = false;
      return out;
    }

    if (this.recordStart !== -1) {
      this.parseInto(out, text.slice(runStart, this.recordStart));
      // The record still open is over the cap (its line break not counted): from here it is only scanned.
      if (text.length - this.recordStart > this.maxRecordChars + 2) this.recordStart = -1;
    }
    if (this.recordStart === -1) {
      // Only what is left to scan is kept: an undecided `\r`, or a quote and the spaces after it
      // (one space stands for any number of them).
      this.before = position > 0 ? text[position - 1]! : this.before;
      this.text = text.slice(position, position + 2);
      this.position = 0;
    } else {
      this.text = text.slice(this.recordStart);
      this.position = position - this.recordStart;
      this.recordStart = 0;
    }
    return out;
  }

  private findBreak(text: string, from: number): number {
    if (this.lineBreak) return text.indexOf(this.lineBreak, from);
    const lf = text.indexOf("\n", from);
    const cr = text.indexOf("\r", from);
    return cr === -1 || (lf !== -1 && lf < cr) ? lf : cr;
  }

  private isDelimiter(character: string): boolean {
    return this.delimiter === null ? GUESSED_DELIMITERS.includes(character) : character === this.delimiter;
  }

  private parseInto(out: CsvRecord[], text: string): void {
    if (text.trim() === "") return;
    // Without quotes nor carriage returns, and once the delimiter is known, the records are the lines
    // split on the delimiter — what papaparse's own fast mode does, without its cost per call and per
    // row (a million rows: about 1 s instead of 3). A line of only delimiters and spaces is blank.
    if (this.delimiter !== null && !text.includes(QUOTE) && !text.includes("\r")) {
      this.blank ??= new RegExp(`^[\\s${this.delimiter.replace(/[\\\]^-]/g, "\\$&")}]*$`);
      for (const line of text.split("\n")) {
        if (!this.blank.test(line)) out.push(line.split(this.delimiter));
      }
      return;
    }
    const result = Papa.parse<string[]>(text, { skipEmptyLines: "greedy", delimiter: this.delimiter ?? "" });
    this.delimiter ??= result.meta.delimiter;
    for (const record of result.data) out.push(record);
  }
}

/** Batches of records (arrays of cells, or `RecordTooLong`) from text chunks; blank lines are skipped. */
export async function* csvRecords(chunks: AsyncIterable<string>, maxRecordChars = MAX_RECORD_CHARS): AsyncGenerator<CsvRecord[]> {
  const reader = new CsvRecordReader(maxRecordChars);
  for await (const chunk of chunks) {
    const records = reader.push(chunk);
    if (records.length > 0) yield records;
  }
  const rest = reader.end();
  if (rest.length > 0) yield rest;
}
