import fs from "node:fs";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { describe, expect, it } from "vitest";

const MIGRATIONS = path.join(import.meta.dirname, "migrations");
const journal = JSON.parse(fs.readFileSync(path.join(MIGRATIONS, "meta", "_journal.json"), "utf8")) as { entries: { tag: string }[] };

async function apply(db: PGlite, tag: string) {
  const text = fs.readFileSync(path.join(MIGRATIONS, `${tag}.sql`), "utf8");
  for (const statement of text.split("--> statement-breakpoint")) if (statement.trim()) await db.exec(statement);
}

describe("the multiple senders migration", () => {
  it("makes each workspace's one sender its default, named after its number, and points campaigns and templates at it", async () => {
    const db = new PGlite();
    const tags = journal.entries.map((entry) => entry.tag);
    const index = tags.findIndex((tag) => tag.endsWith("_multiple_senders"));
    for (const tag of tags.slice(0, index)) await apply(db, tag);
    await db.exec(`
      insert into workspaces (id, name) values ('ws_a', 'A'), ('ws_b', 'B'), ('ws_c', 'C');
      insert into senders (id, workspace_id, provider, phone_number_id, waba_id, display_phone_number) values
        ('snd_a', 'ws_a', 'whatsapp', '1065403522', '1022901293', '+1 555 0100'),
        ('snd_b', 'ws_b', 'sandbox', null, null, null),
        ('snd_c', 'ws_c', 'whatsapp', '1065403599', '1022909999', null);
      insert into campaigns (id, workspace_id, name) values ('cmp_a', 'ws_a', 'A1'), ('cmp_b', 'ws_b', 'B1');
      insert into templates (id, workspace_id, external_id, name, language, category, status) values
        ('tpl_a', 'ws_a', '9001', 'hello', 'en_US', 'UTILITY', 'APPROVED'),
        ('tpl_b', 'ws_b', 'sandbox:order_confirmation', 'order_confirmation', 'en_US', 'UTILITY', 'APPROVED');
    `);
    await apply(db, tags[index]!);
    const { rows: senders } = await db.query<{ id: string; name: string; is_default: boolean; status: string }>(
      `select id, name, is_default, status from senders order by id`,
    );
    expect(senders).toEqual([
      { id: "snd_a", name: "+1 555 0100", is_default: true, status: "connected" },
      { id: "snd_b", name: "Sandbox", is_default: true, status: "connected" },
      { id: "snd_c", name: "WhatsApp 1065403599", is_default: true, status: "untested" },
    ]);
    const { rows: campaigns } = await db.query<{ id: string; sender_id: string }>(`select id, sender_id from campaigns order by id`);
    expect(campaigns).toEqual([{ id: "cmp_a", sender_id: "snd_a" }, { id: "cmp_b", sender_id: "snd_b" }]);
    const { rows: templates } = await db.query<{ id: string; account: string }>(`select id, account from templates order by id`);
    expect(templates).toEqual([{ id: "tpl_a", account: "waba:1022901293" }, { id: "tpl_b", account: "sandbox" }]);
    // A second number may now join a workspace, but never a second default.
    await db.exec(`insert into senders (id, workspace_id, provider, name) values ('snd_a2', 'ws_a', 'sandbox', 'Test number')`);
    await expect(db.exec(`update senders set is_default = true where id = 'snd_a2'`)).rejects.toThrow(/senders_workspace_default_idx/);
    await db.close();
  });
});
