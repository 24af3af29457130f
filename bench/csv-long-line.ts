// `npm run bench:csv-long-line`: one header, one 60 MB cell, one short row, fed to the import's CSV
// reader in 64 KiB chunks as an upload arrives. Prints the records read, the peak RSS over the
// starting RSS and the time: the line is over the record cap, so memory stays flat in its length.
//
// Env: BENCH_CELL_MB (60).
import { performance } from "node:perf_hooks";
import { csvRecords, RecordTooLong } from "@/lib/imports/csv";

const CELL_MB = Number(process.env.BENCH_CELL_MB ?? 60);
const CHUNK = "x".repeat(64 * 1024);

async function* upload(): AsyncGenerator<string> {
  yield "phone,note\n+447911123456,";
  for (let sent = 0; sent < CELL_MB * 1024 * 1024; sent += CHUNK.length) yield CHUNK;
  yield "\n+447911123457,after\n";
}

const rssMb = () => process.memoryUsage().rss / (1024 * 1024);
const startRss = rssMb();
let peakRss = startRss;
const sampler = setInterval(() => (peakRss = Math.max(peakRss, rssMb())), 20);
const started = performance.now();
const records: string[] = [];
for await (const batch of csvRecords(upload())) {
  for (const record of batch) records.push(record instanceof RecordTooLong ? "(too long)" : record.join(","));
  peakRss = Math.max(peakRss, rssMb());
}
clearInterval(sampler);
console.log(`records: ${records.join(" | ")}`);
console.log(`RSS ${startRss.toFixed(0)} → ${peakRss.toFixed(0)} MB (+${(peakRss - startRss).toFixed(1)}) for a ${CELL_MB} MB cell, ${(performance.now() - started).toFixed(0)} ms`);
