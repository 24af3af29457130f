// (g) of `npm run test:reliability`: a CSV import of N rows (full: 1,000,000; short: 600,000; a large
// file is merged in ranges of about 250,000 phones, two at a time) through the API, the server
// SIGKILLed as soon as the job's counters show a range merged while others are not, then restarted.
// The job names its process's claim owner; once that lock is free (the process died) the merge is
// taken over at once when the job is read or by the recovery job, not after 30 s without progress. → the
// merge is taken over within seconds of the restart, the job completes with the report of the file (every distinct valid phone created once, none counted as
// unchanged, which a range merged twice would be), the workspace holds each phone once and the list
// every contact, and no range of the plan is left.
import { sql } from "drizzle-orm";
import { rowsOf } from "@/db/rows";
import type { ScenarioContext } from "./reliability-scenarios";
import { BASE_URL, sleep } from "./trigger-support";

/** Every 20th row repeats the phone of the row before it (the later row wins); every 100th is invalid. */
function importFile(rows: number): { csv: string; distinct: number; duplicates: number; invalid: number } {
  const lines = ["phone,name,city"];
  const phones = new Set<string>();
  let duplicates = 0;
  let invalid = 0;
  for (let i = 1; i <= rows; i++) {
    if (i % 100 === 0) {
      invalid++;
      lines.push(`4.41E+11,Invalid ${i},Porto`);
      continue;
    }
    const repeat = i % 20 === 0;
    const phone = `+35193${String(repeat ? i - 1 : i).padStart(7, "0")}`;
    if (phones.has(phone)) duplicates++;
    phones.add(phone);
    lines.push(`${phone},Person ${i},${i % 2 ? "Lisbon" : "Porto"}`);
  }
  return { csv: `${lines.join("\n")}\n`, distinct: phones.size, duplicates, invalid };
}

export async function importUnderKill(ctx: ScenarioContext, server: { killAndRestart(): Promise<number> }) {
  const { report, db } = ctx;
  const { createTriggerFixture } = await import("@/lib/testing/trigger-factories");
  // A workspace of its own: the other scenarios' triggers store contacts in theirs.
  const { apiKey, workspaceId } = await createTriggerFixture({ rateLimitPerMinute: 1_000_000_000 });
  const rows = Number(process.env.RELIABILITY_IMPORT_ROWS ?? (ctx.short ? 600_000 : 1_000_000));
  report.section(`(g) a CSV import of ${rows} rows, the server SIGKILLed during the merge`);
  const file = importFile(rows);
  const headers = { "x-api-key": apiKey, "content-type": "application/json" };
  const created = await fetch(`${BASE_URL}/api/v1/imports`, {
    method: "POST",
    headers,
    body: JSON.stringify({
      fileName: "reliability.csv",
      updateExisting: true,
      newListName: "Reliability import",
      columns: [
        { index: 0, header: "phone", target: { type: "phone" } },
        { index: 1, header: "name", target: { type: "name" } },
        { index: 2, header: "city", target: { type: "attribute", key: "city", attributeType: "string" } },
      ],
    }),
  });
  const job = (await created.json()) as { id: string };
  report.check(created.status === 201, `(g) the import job was created (${created.status})`);
  const uploaded = await fetch(`${BASE_URL}/api/v1/imports/${job.id}/file`, { method: "PUT", headers: { "x-api-key": apiKey, "content-type": "text/csv" }, body: file.csv });
  report.check(uploaded.status === 202, `(g) the file was accepted (${uploaded.status})`);

  type JobView = { status: string; created: number; updated: number; unchanged: number; duplicates: number; invalid: number; listId: string | null; error: string | null };
  const read = async () => (await (await fetch(`${BASE_URL}/api/v1/imports/${job.id}`, { headers: { "x-api-key": apiKey } })).json()) as JobView;
  // Killed once a range is merged and the job is not complete: ranges are merged and others are not (or in flight).
  let atKill: JobView | null = null;
  for (const until = Date.now() + 300_000; Date.now() < until; await sleep(50)) {
    const view = await read();
    if (view.status !== "processing") break;
    if (view.created > 0) {
      atKill = view;
      break;
    }
  }
  report.check(atKill !== null, `(g) the server was killed during the merge, with ${atKill?.created ?? 0} of ${file.distinct} contacts merged`);
  if (!atKill) return;
  const ownerOf = async () => (await rowsOf<{ owner: number | null }>(await db.execute(sql`select owner from contact_imports where id = ${job.id}`)))[0]?.owner ?? null;
  const ownerAtKill = await ownerOf();
  const diedAt = await server.killAndRestart();
  const restartedAt = Date.now();
  const merged = (await rowsOf<{ n: number }>(await db.execute(sql`select count(*)::int as n from contacts where workspace_id = ${workspaceId}`)))[0]!.n;
  report.note(`killed with ${atKill.created} contacts counted merged; ${merged} stored after the restart, before the merge resumed`);

  let last: JobView | null = null;
  let takenOverAt: number | null = null;
  for (const until = Date.now() + 240_000; Date.now() < until; await sleep(500)) {
    last = await read();
    if (takenOverAt === null && (last.status !== "processing" || (await ownerOf()) !== ownerAtKill)) takenOverAt = Date.now();
    if (last.status !== "processing") break;
  }
  const takeover = takenOverAt === null ? null : (takenOverAt - restartedAt) / 1000;
  // Before the owner, a merge was taken over only 30 s after its last range (which came before the kill).
  report.check(takeover !== null && takeover < 20, `(g) the merge was taken over ${takeover?.toFixed(1) ?? "never"} s after the restart (its process gone: no 30 s wait)`);
  const seconds = ((Date.now() - diedAt) / 1000).toFixed(1);
  report.note(`job after the restart: ${JSON.stringify(last)}, ${seconds} s after the kill`);
  report.check(last?.status === "completed", `(g) the merge resumed after the restart and completed (${last?.status}, ${seconds} s after the kill)`);
  report.check(
    last?.created === file.distinct && last.updated === 0 && last.unchanged === 0 && last.duplicates === file.duplicates && last.invalid === file.invalid,
    `(g) the report is the file's: ${file.distinct} created, 0 unchanged (no range merged twice), ${file.duplicates} duplicates, ${file.invalid} invalid`,
  );
  const [stored] = rowsOf<{ contacts: number; phones: number; members: number; ranges: number }>(
    await db.execute(sql`select (select count(*)::int from contacts where workspace_id = ${workspaceId}) as contacts,
        (select count(distinct phone_number)::int from contacts where workspace_id = ${workspaceId}) as phones,
        (select count(*)::int from contact_list_members where list_id = ${last?.listId ?? ""}) as members,
        (select count(*)::int from contact_import_chunks where import_id = ${job.id}) as ranges`),
  );
  report.check(
    stored?.contacts === file.distinct && stored.phones === file.distinct && stored.members === file.distinct && stored.ranges === 0,
    `(g) the workspace holds each phone once and the list every contact, no range left (${JSON.stringify(stored)})`,
  );
}
