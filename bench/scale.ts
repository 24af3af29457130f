// `npm run bench:scale`: the pages of one big workspace on Postgres, over HTTP with a signed-in
// session, through `next start` (production build).
//
// Seed (SQL, `--quick`: a hundredth): 1,000,000 contacts (all in one list), 200 campaigns (160 bulk
// ones launched over the last year, 40 trigger ones sending all year), 10,000,000 messages (statuses
// as a year would leave them: mostly read and delivered, some failed, skipped, replied, a few still
// queued), one contact with 500 messages, 5,000 conversations, 100,000 audit events. The messages are
// written with the table's triggers on (the maintained counts among them) and its foreign keys and
// webhook triggers off, then checked: the maintained counts of every campaign must equal a count of its rows.
//
// Measured (BENCH_RUNS each after 3 warm-ups, one at a time): each page's HTML as the browser
// loads it, and the API calls those pages make. Target: p95 < 300 ms each.
//
// Flags: --quick, --skip-build, --keep (leave the database). Env: BENCH_DATABASE_URL, BENCH_PORT
// (3540), NEXT_DIST_DIR (.next-scale), BENCH_RUNS (20). Results: bench/RESULTS.md (section "scale").
import os from "node:os";
import { performance } from "node:perf_hooks";

const quick = process.argv.includes("--quick");
const skipBuild = process.argv.includes("--skip-build");
const keep = process.argv.includes("--keep");
process.env.NEXT_DIST_DIR ??= ".next-scale";
process.env.BENCH_PORT ??= "3540";

const SCALE = quick ? 0.01 : 1;
const CONTACTS = Math.round(1_000_000 * SCALE);
const BULK_CAMPAIGNS = quick ? 16 : 160;
const TRIGGER_CAMPAIGNS = quick ? 4 : 40;
const MESSAGES_PER_CAMPAIGN = Math.round(10_000_000 * SCALE / (BULK_CAMPAIGNS + TRIGGER_CAMPAIGNS));
const CONTACT_MESSAGES = 500;
const CONVERSATIONS = quick ? 500 : 5_000;
const AUDIT_EVENTS = Math.round(100_000 * SCALE);
const RUNS = Number(process.env.BENCH_RUNS ?? 20);
const TARGET_P95_MS = 300;
const PASSWORD = "scale-bench-password-1";
const TRIGGER_RATE = Number(process.env.BENCH_TRIGGER_RATE ?? 50);
const TRIGGER_SECONDS = quick ? 5 : 20;

const support = await import("./trigger-support");
const { BASE_URL, ensureBuild, freshDatabase, phoneNumbers, poster, startServer, writeResultsSection, benchDatabaseUrl } = support;
const { openLoop, percentile, round } = await import("./journeys-support");

const DB_NAME = "sendstream_bench_scale";
const url = await freshDatabase(DB_NAME);
process.env.DATABASE_URL = url;
process.env.ENCRYPTION_KEY ??= "5ca1".repeat(16);
const { closeDb, getDb } = await import("@/db");
const { queryRows } = await import("@/db/rows");
const { sql } = await import("drizzle-orm");
await import("@/lib/engine/campaign-kinds");
const { createTriggerFixture } = await import("@/lib/testing/trigger-factories");
const { contactLists } = await import("@/db/schema");
const { newId } = await import("@/lib/crypto/random");
const { createCampaign } = await import("@/lib/campaigns/service");
const { hashPassword } = await import("@/lib/auth/password");
const { foldCountDeltas } = await import("@/lib/campaigns/counts");

const db = await getDb();
const load = os.loadavg().map((n) => n.toFixed(1)).join(" / ");
const startedAt = new Date();
let server: Awaited<ReturnType<typeof startServer>> | null = null;

const step = async <T>(label: string, work: () => Promise<T>): Promise<T> => {
  const t0 = performance.now();
  const result = await work();
  console.log(`  ${label}: ${((performance.now() - t0) / 1000).toFixed(1)} s`);
  return result;
};

try {
  if (!skipBuild) ensureBuild();
  // The trigger fixture's workspace (an active trigger campaign, its template, an API key) becomes the big one.
  const fixture = await createTriggerFixture({ rateLimitPerMinute: 1_000_000_000 });
  const { workspaceId, templateId } = fixture;
  // No job loop in the server: nothing runs beside the requests being timed (triggers stay queued).
  const serverEnv = { DATABASE_URL: url, DISPATCHER: "off", TRIGGER_KEY_RATE_LIMIT_PER_MINUTE: "1000000000" };

  // ---- the trigger on the empty database --------------------------------------------------------
  server = await startServer(serverEnv);
  const triggerEmpty = await measureTriggers(fixture.campaignId, fixture.apiKey, 0);
  await server.stop();
  server = null;

  // ---- seed -------------------------------------------------------------------------------------
  console.log(`Seeding ${CONTACTS.toLocaleString("en-US")} contacts, ${BULK_CAMPAIGNS + TRIGGER_CAMPAIGNS} campaigns, ${(MESSAGES_PER_CAMPAIGN * (BULK_CAMPAIGNS + TRIGGER_CAMPAIGNS)).toLocaleString("en-US")} messages …`);
  const seedStarted = performance.now();
  const listId = newId("lst");
  await db.insert(contactLists).values({ id: listId, workspaceId, name: "Everyone" });
  const [owner] = await queryRows<{ email: string }>(db, sql`select email from users where id = ${fixture.userId}`);
  await db.execute(sql`update users set password_hash = ${await hashPassword(PASSWORD)}, email_verified_at = now() where id = ${fixture.userId}`);
  const [sender] = await queryRows<{ id: string }>(db, sql`select id from senders where workspace_id = ${workspaceId}`);

  await step("contacts", () =>
    db.execute(sql`insert into contacts (id, workspace_id, phone_number, name, attributes, consent_status, opted_out_at, opt_out_method, created_at)
      select 'ctc_s' || i, ${workspaceId}, '+49151' || lpad(i::text, 8, '0'), 'Customer ' || i,
        jsonb_build_object('city', (array['Lisbon', 'Porto', 'Berlin', 'Paris', 'Madrid'])[i % 5 + 1], 'points', i % 1000),
        case when i % 50 = 0 then 'unsubscribed' else 'subscribed' end,
        case when i % 50 = 0 then now() - interval '10 days' end,
        case when i % 50 = 0 then 'import' end,
        now() - make_interval(days => i % 365)
      from generate_series(1, ${CONTACTS}::int) i`),
  );
  await step("list members", () => db.execute(sql`insert into contact_list_members (list_id, contact_id) select ${listId}, 'ctc_s' || i from generate_series(1, ${CONTACTS}::int) i`));

  // Campaigns: one bulk and the fixture's trigger campaign, each cloned.
  const bulk = await createCampaign(db, workspaceId, { kind: "bulk", name: "Newsletter 1", audience: { listIds: [listId], segmentIds: [] }, templateId });
  const trigger = { id: fixture.campaignId };
  const bulkIds = Array.from({ length: BULK_CAMPAIGNS }, (_, i) => (i === 0 ? bulk.id : `cmp_sb${i}`));
  const triggerIds = Array.from({ length: TRIGGER_CAMPAIGNS }, (_, i) => (i === 0 ? trigger.id : `cmp_st${i}`));
  await db.execute(sql`update campaigns set name = 'Order updates 1', sender_id = ${sender!.id}, deployed_at = now() - interval '365 days', created_at = now() - interval '366 days' where id = ${trigger.id}`);
  const yearAgo = Date.now() - 365 * 86_400_000;
  for (let i = 0; i < BULK_CAMPAIGNS; i++) {
    const launched = new Date(yearAgo + ((i + 0.5) / BULK_CAMPAIGNS) * 364 * 86_400_000).toISOString();
    if (i === 0) {
      await db.execute(sql`update campaigns set status = 'completed', sender_id = ${sender!.id}, launched_at = ${launched}::timestamptz, completed_at = ${launched}::timestamptz + interval '2 hours', created_at = ${launched}::timestamptz - interval '1 day' where id = ${bulk.id}`);
    } else {
      await db.execute(sql`insert into campaigns (id, workspace_id, name, kind, status, message_config, template_id, sender_id, audience, send_rate_per_second, launched_at, completed_at, created_at)
        select ${bulkIds[i]!}, workspace_id, ${`Newsletter ${i + 1}`}, kind, status, message_config, template_id, sender_id, audience, send_rate_per_second,
          ${launched}::timestamptz, ${launched}::timestamptz + interval '2 hours', ${launched}::timestamptz - interval '1 day'
        from campaigns where id = ${bulk.id}`);
    }
  }
  for (let i = 1; i < TRIGGER_CAMPAIGNS; i++) {
    await db.execute(sql`insert into campaigns (id, workspace_id, name, kind, status, trigger_config, message_config, template_id, sender_id, deployed_at, created_at)
      select ${triggerIds[i]!}, workspace_id, ${`Order updates ${i + 1}`}, kind, status, trigger_config, message_config, template_id, sender_id, deployed_at, now() - interval '366 days'
      from campaigns where id = ${trigger.id}`);
  }

  // Messages: foreign keys and the per-row webhook triggers off for the seed (its rows are valid by
  // construction); the maintained counts' statement triggers stay on.
  await step("messages", async () => {
    await db.execute(sql`alter table messages disable trigger all`);
    await db.execute(sql`alter table messages enable trigger messages_counts_insert`);
    const indexes = await queryRows<{ name: string; definition: string }>(
      db,
      sql`select indexname as name, indexdef as definition from pg_indexes where tablename = 'messages' and indexname <> 'messages_pkey'`,
    );
    for (const index of indexes) await db.execute(sql.raw(`drop index "${index.name}"`));
    let written = 0;
    const all = [...bulkIds.map((id, n) => ({ id, n, kind: "bulk" as const })), ...triggerIds.map((id, n) => ({ id, n, kind: "trigger" as const }))];
    for (const campaign of all) {
      // Bulk: the whole audience on its launch day. Trigger: spread over the year, every 4,000th to
      // contact 1 (500 messages in all at full size), a few of the last still queued.
      const launched = new Date(yearAgo + ((campaign.n + 0.5) / BULK_CAMPAIGNS) * 364 * 86_400_000).toISOString();
      const created = campaign.kind === "bulk"
        ? sql`${launched}::timestamptz + make_interval(secs => j * 0.1)`
        : sql`now() - make_interval(secs => (${MESSAGES_PER_CAMPAIGN}::int - j) * ${(365 * 86_400) / MESSAGES_PER_CAMPAIGN}::float8)`;
      const contact = campaign.kind === "bulk"
        ? sql`((${campaign.n * 7919}::int + j) % ${CONTACTS}::int) + 1`
        : sql`case when j % ${Math.max(1, Math.floor((MESSAGES_PER_CAMPAIGN * TRIGGER_CAMPAIGNS) / CONTACT_MESSAGES))}::int = 0 then 1 else ((${campaign.n * 104729}::int + j * 31) % ${CONTACTS}::int) + 1 end`;
      const status = campaign.kind === "trigger"
        ? sql`case when j > ${MESSAGES_PER_CAMPAIGN - 3}::int then 'queued' when j % 100 < 55 then 'read' when j % 100 < 80 then 'delivered' when j % 100 < 88 then 'sent' when j % 100 < 96 then 'failed' else 'skipped' end`
        : sql`case when j % 100 < 55 then 'read' when j % 100 < 80 then 'delivered' when j % 100 < 88 then 'sent' when j % 100 < 96 then 'failed' else 'skipped' end`;
      await db.execute(sql`insert into messages (id, workspace_id, campaign_id, contact_id, sender_id, phone_number, template_name, template_language,
          rendered_text, payload, status, source, wamid, error_code, error_reason, sent_at, delivered_at, read_at, failed_at, replied_at, created_at, updated_at, next_attempt_at)
        select m.id, ${workspaceId}, ${campaign.id}, 'ctc_s' || m.contact, ${sender!.id}, '+49151' || lpad(m.contact::text, 8, '0'), 'order_shipped', 'en_US',
          'Hi Customer ' || m.contact || ', our spring collection is here.', '{}'::jsonb, m.status, ${campaign.kind},
          case when m.status in ('sent', 'delivered', 'read') then 'wamid.' || m.id end,
          case when m.status = 'failed' then '131026' when m.status = 'skipped' then 'opted_out' end,
          case when m.status = 'failed' then 'Message undeliverable.' when m.status = 'skipped' then 'The contact opted out.' end,
          case when m.status in ('sent', 'delivered', 'read') then m.created + interval '1 second' end,
          case when m.status in ('delivered', 'read') then m.created + interval '3 seconds' end,
          case when m.status = 'read' then m.created + interval '5 minutes' end,
          case when m.status = 'failed' then m.created + interval '2 seconds' end,
          case when m.status = 'read' and m.j % 100 < 3 then m.created + interval '20 minutes' end,
          m.created, m.created, m.created
        from (
          select ${campaign.id} || '_' || j as id, j, ${contact} as contact, ${created} as created, ${status} as status
          from generate_series(1, ${MESSAGES_PER_CAMPAIGN}::int) j
        ) m`);
      written += MESSAGES_PER_CAMPAIGN;
      if (written % (MESSAGES_PER_CAMPAIGN * 20) === 0) console.log(`    ${written.toLocaleString("en-US")} messages`);
    }
    await db.execute(sql`set maintenance_work_mem = '1GB'`);
    for (const index of indexes) await step(`index ${index.name}`, () => db.execute(sql.raw(index.definition)));
    await db.execute(sql`alter table messages enable trigger all`);
    return written;
  });
  await step("fold the count deltas", async () => {
    while ((await foldCountDeltas(db, 100_000)) > 0);
  });

  await step("conversations and audit events", async () => {
    await db.execute(sql`insert into conversations (id, workspace_id, contact_id, sender_id, status, last_inbound_at, last_activity_at, last_preview, last_direction, unread, created_at)
      select 'cnv_s' || i, ${workspaceId}, 'ctc_s' || i, ${sender!.id}, case when i % 3 = 0 then 'closed' else 'open' end,
        now() - make_interval(mins => i), now() - make_interval(mins => i), 'Is this still available?', 'inbound', case when i % 4 = 0 then 1 else 0 end, now() - make_interval(mins => i)
      from generate_series(1, ${CONVERSATIONS}::int) i`);
    await db.execute(sql`insert into audit_events (id, workspace_id, actor_user_id, action, target_type, target_id, metadata, created_at)
      select 'aud_s' || i, ${workspaceId}, ${fixture.userId}, (array['campaign.updated', 'contact.updated', 'api_key.created', 'campaign.launched'])[i % 4 + 1],
        'campaign', ${bulkIds[0]!}, '{}'::jsonb, now() - make_interval(mins => i)
      from generate_series(1, ${AUDIT_EVENTS}::int) i`);
  });
  // What autovacuum does to a live database within minutes (the visibility map lets counts read indexes only).
  await step("vacuum analyze", () => db.execute(sql`vacuum analyze`));
  const seedSeconds = (performance.now() - seedStarted) / 1000;

  // Exact: the maintained counts of every campaign equal a count of its rows.
  const mismatches = await step("check the maintained counts against the rows", () =>
    queryRows<{ campaign_id: string }>(
      db,
      sql`with rows as (
          select campaign_id, status, count(*) as n from messages where workspace_id = ${workspaceId} and source in ('trigger', 'bulk') group by 1, 2
        ), kept as (
          select campaign_id, status, sum(messages) as n from campaign_message_counts where workspace_id = ${workspaceId} group by 1, 2
        )
        select coalesce(r.campaign_id, k.campaign_id) as campaign_id from rows r full join kept k using (campaign_id, status)
        where r.n is distinct from k.n and coalesce(k.n, 0) <> coalesce(r.n, 0)`,
    ),
  );
  const [sizes] = await queryRows<{ messages: string; contacts: string; bytes: string }>(
    db,
    sql`select (select count(*) from messages) as messages, (select count(*) from contacts) as contacts, pg_database_size(current_database()) as bytes`,
  );
  console.log(`Seeded in ${seedSeconds.toFixed(0)} s: ${Number(sizes!.messages).toLocaleString("en-US")} messages, ${Number(sizes!.contacts).toLocaleString("en-US")} contacts, ${(Number(sizes!.bytes) / 2 ** 30).toFixed(1)} GiB; count mismatches: ${mismatches.length}`);

  // ---- server and session -----------------------------------------------------------------------
  await db.execute(sql`checkpoint`);
  server = await startServer(serverEnv);
  const cookie = await signIn(owner!.email, PASSWORD);

  const bulkId = bulkIds[Math.floor(BULK_CAMPAIGNS / 2)]!;
  const triggerId = triggerIds[0]!;
  const bulkDay = new Date(yearAgo + ((Math.floor(BULK_CAMPAIGNS / 2) + 0.5) / BULK_CAMPAIGNS) * 364 * 86_400_000);
  const from = bulkDay.toISOString().slice(0, 10);
  const to = new Date(bulkDay.getTime() + 86_400_000).toISOString().slice(0, 10);
  const phone = `+49151${String(4242).padStart(8, "0")}`;
  const targets: { label: string; path: string; method?: "POST"; body?: unknown }[] = [
    { label: "Campaigns list (page)", path: "/campaigns" },
    { label: "Campaigns list (API)", path: "/api/v1/campaigns?limit=50" },
    { label: "Bulk campaign page (funnel, chart, progress)", path: `/campaigns/${bulkId}` },
    { label: "Bulk campaign progress (API, polled)", path: `/api/v1/campaigns/${bulkId}/progress` },
    { label: "Trigger campaign page", path: `/campaigns/${triggerId}` },
    { label: "Logs, first page", path: `/campaigns/${bulkId}/logs` },
    { label: "Logs, failed", path: `/campaigns/${bulkId}/logs?status=failed` },
    { label: "Logs, read", path: `/campaigns/${bulkId}/logs?status=read` },
    { label: "Logs, queued (trigger campaign)", path: `/campaigns/${triggerId}/logs?status=queued` },
    { label: "Logs, replied", path: `/campaigns/${bulkId}/logs?replied=true` },
    { label: "Logs, dates", path: `/campaigns/${bulkId}/logs?from=${from}&to=${to}` },
    { label: "Logs, phone", path: `/campaigns/${bulkId}/logs?phone=${encodeURIComponent(phone)}` },
    { label: "All logs (workspace)", path: "/logs" },
    { label: "All logs, failed", path: "/logs?status=failed" },
    { label: "All logs, phone", path: `/logs?phone=${encodeURIComponent(phone)}` },
    { label: "Campaign messages (API)", path: `/api/v1/campaigns/${bulkId}/messages?limit=50` },
    { label: "Contacts (page)", path: "/contacts" },
    { label: "Contacts, first page (API)", path: "/api/v1/contacts?limit=50" },
    { label: "Contacts, search by phone (API)", path: `/api/v1/contacts?search=${encodeURIComponent(phone)}` },
    { label: "Contacts, total count (API)", path: "/api/v1/contacts/count" },
    { label: "Contacts, search count (API)", path: `/api/v1/contacts/count?search=${encodeURIComponent(phone)}` },
    { label: "Contact page with 500 messages", path: "/contacts/ctc_s1" },
    { label: "Contact's messages, first 50 (API)", path: "/api/v1/contacts/ctc_s1/messages?limit=50" },
    { label: "Inbox (page)", path: "/inbox" },
    { label: "Inbox list (API)", path: "/api/v1/conversations?limit=50" },
    { label: "Segment count (API)", path: "/api/v1/segments/count", method: "POST", body: segmentBody() },
    { label: "Audit log (page)", path: "/settings/audit-log" },
  ];
  const results: { label: string; path: string; method: string; status: number; p50: number; p95: number; max: number }[] = [];
  for (const target of targets) {
    const times: number[] = [];
    let status = 0;
    for (let i = 0; i < RUNS + 3; i++) {
      const t0 = performance.now();
      const response = await fetch(`${BASE_URL}${target.path}`, {
        method: target.method ?? "GET",
        headers: { cookie, origin: BASE_URL, ...(target.body ? { "content-type": "application/json" } : {}) },
        body: target.body ? JSON.stringify(target.body) : undefined,
        redirect: "manual",
      });
      await response.arrayBuffer();
      status = response.status;
      if (i >= 3) times.push(performance.now() - t0);
    }
    times.sort((a, b) => a - b);
    const row = { label: target.label, path: target.path, method: target.method ?? "GET", status, p50: round(percentile(times, 50)), p95: round(percentile(times, 95)), max: round(times.at(-1)!) };
    results.push(row);
    console.log(`  ${row.label}: ${row.status} p50 ${row.p50} ms, p95 ${row.p95} ms, max ${row.max} ms`);
  }

  const triggerFull = await measureTriggers(fixture.campaignId, fixture.apiKey, (TRIGGER_SECONDS + 2) * TRIGGER_RATE);
  const triggerRatio = triggerFull.p99 / Math.max(0.001, triggerEmpty.p99);

  const failedStatus = results.filter((r) => r.status !== 200);
  const slow = results.filter((r) => r.p95 >= TARGET_P95_MS);
  const sizesLine = `${Number(sizes!.contacts).toLocaleString("en-US")} contacts, ${BULK_CAMPAIGNS + TRIGGER_CAMPAIGNS} campaigns, ${Number(sizes!.messages).toLocaleString("en-US")} messages, ${CONVERSATIONS.toLocaleString("en-US")} conversations, ${AUDIT_EVENTS.toLocaleString("en-US")} audit events (database ${(Number(sizes!.bytes) / 2 ** 30).toFixed(1)} GiB)`;
  const markdown = [
    `## Pages at scale (\`npm run bench:scale${quick ? " -- --quick" : ""}\`)`,
    "",
    `Run ${startedAt.toISOString()} on ${os.cpus().length} cores (${os.cpus()[0]?.model.trim()}), ${Math.round(os.totalmem() / 2 ** 30)} GiB RAM, Node ${process.version}; load average before the run ${load}.`,
    `One workspace: ${sizesLine}; seeded in ${seedSeconds.toFixed(0)} s. \`next start\` (production build, Postgres through postgres.js, no job loop), one request at a time with a signed-in session's cookie; ${RUNS} timed requests per row after 3 warm-ups.`,
    "",
    "| what | request | status | p50 ms | p95 ms | max ms |",
    "|---|---|---|---|---|---|",
    ...results.map((r) => `| ${r.label} | \`${r.method} ${r.path.replace(/cmp_[A-Za-z0-9_]+/g, "{id}").replace(/ctc_s1/, "{id}")}\` | ${r.status} | ${r.p50} | ${r.p95} | ${r.max} |`),
    "",
    `- Every answer 200: ${failedStatus.length === 0 ? "yes" : `no (${failedStatus.map((r) => `${r.label} ${r.status}`).join(", ")})`}.`,
    `- p95 < ${TARGET_P95_MS} ms on every row: ${slow.length === 0 ? "**pass**" : `**FAIL** (${slow.map((r) => `${r.label} ${r.p95} ms`).join("; ")})`}.`,
    `- The trigger (\`POST /api/campaigns/{id}/trigger\` with an API key, a new contact each time, web-only) open-loop at ${TRIGGER_RATE}/s for ${TRIGGER_SECONDS} s after 2 s of warm-up: empty database p50 ${triggerEmpty.p50} ms, p99 **${triggerEmpty.p99} ms**; this workspace p50 ${triggerFull.p50} ms, p99 **${triggerFull.p99} ms** (${triggerFull.failed} refused or failed) = ${triggerRatio.toFixed(2)}× (target ≤ 1.2×, every request accepted): ${triggerRatio <= 1.2 && triggerEmpty.failed === 0 && triggerFull.failed === 0 ? "**pass**" : "**FAIL**"}.`,
    `- The maintained counts (written by the messages' statement triggers during the seed, then folded) equal a count of the rows for every campaign and status: ${mismatches.length === 0 ? "yes" : `no (${mismatches.length} campaigns differ)`}.`,
    "",
  ].join("\n");
  writeResultsSection("scale", markdown);
  console.log(markdown);
} finally {
  await server?.stop();
  await closeDb();
  if (!keep) {
    const postgres = (await import("postgres")).default;
    const admin = new URL(benchDatabaseUrl(DB_NAME));
    admin.pathname = "/postgres";
    const client = postgres(admin.toString(), { max: 1, onnotice: () => {} });
    await client.unsafe(`drop database if exists "${DB_NAME}" with (force)`);
    await client.end();
  }
}

/** Open loop at TRIGGER_RATE for TRIGGER_SECONDS after 2 s of warm-up; each request a new phone (from `offset`). */
async function measureTriggers(campaignId: string, apiKey: string, offset: number) {
  // Valid UK mobiles (+447911 1xxxxx), a new contact each time; the second run takes the next ones.
  const phones = phoneNumbers((TRIGGER_SECONDS + 2) * TRIGGER_RATE, offset);
  const post = poster(`${BASE_URL}/api/campaigns/${campaignId}/trigger`, { "content-type": "application/json", "x-api-key": apiKey });
  const send = async (i: number) => {
    const status = await post(JSON.stringify({ phone: phones[i], order: `ORD-${offset + i}`, first_name: "Bench", amount: 42 }));
    if (status !== 202) throw new Error(`${status}`);
    return true;
  };
  await openLoop(TRIGGER_RATE, 2 * TRIGGER_RATE, send);
  const result = await openLoop(TRIGGER_RATE, TRIGGER_SECONDS * TRIGGER_RATE, (i) => send(2 * TRIGGER_RATE + i));
  const figures = { p50: round(percentile(result.latencies, 50)), p99: round(percentile(result.latencies, 99)), failed: result.failed, firstError: result.firstError };
  console.log(`  trigger at ${TRIGGER_RATE}/s: p50 ${figures.p50} ms, p99 ${figures.p99} ms, ${result.ok} accepted, ${result.failed} not${figures.firstError ? ` (${figures.firstError})` : ""}`);
  return figures;
}

function segmentBody() {
  return {
    filter: {
      match: "all",
      conditions: [
        { field: "attribute", key: "city", op: "equals", value: "Lisbon" },
        { field: "attribute", key: "points", op: "gte", value: 500 },
        { field: "opted_out", value: false },
      ],
    },
  };
}

/** Signs in as a browser does (next-auth's CSRF token, then the credentials callback); the session cookie. */
async function signIn(email: string, password: string): Promise<string> {
  const csrfResponse = await fetch(`${BASE_URL}/api/auth/csrf`);
  const { csrfToken } = (await csrfResponse.json()) as { csrfToken: string };
  const csrfCookie = csrfResponse.headers.getSetCookie().map((c) => c.split(";")[0]).join("; ");
  const response = await fetch(`${BASE_URL}/api/auth/callback/credentials`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded", cookie: csrfCookie, origin: BASE_URL },
    body: new URLSearchParams({ csrfToken, email, password, json: "true" }),
    redirect: "manual",
  });
  const session = response.headers.getSetCookie().map((c) => c.split(";")[0]!).find((c) => c.includes("session-token"));
  if (!session) throw new Error(`Sign-in failed (${response.status}).`);
  return session;
}
