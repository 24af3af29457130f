// ss_fold_attributes (db/migrations/0041_faster_attribute_folding.sql) lowercases the text of a flat object
// instead of folding it key by key. Whatever object it is given, it must return what the key-by-key
// definition (ss_fold_attributes_each) returns: the segment conditions fold their values that way.
import { sql } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { getDb } from "@/db";
import { queryRows } from "@/db/rows";

/** A small deterministic generator (mulberry32), so a failure names a case that comes back on the next run. */
function generator(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Characters that matter to folding or to the text form of JSON: the trimmed white space, quotes and
// backslashes (escaped in the text form), control characters, letters with and without case beyond ASCII.
const TRICKY = [" ", "\t", "\n", "\r", "\u00a0", '"', "\\", "\u0001", "\f", "\b", "A", "z", "É", "ß", "Σ", "İ", "K", "1", ",", ":", "{", "}", "[", "]", "ü", "日"];
const PLAIN = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-_ .@";

function caseOf(random: () => number): Record<string, unknown> {
  const pick = <T,>(items: readonly T[]): T => items[Math.floor(random() * items.length)]!;
  const text = (length: number, alphabet: readonly string[]) => Array.from({ length }, () => pick(alphabet)).join("");
  const plain = [...PLAIN];
  const value = (depth: number): unknown => {
    const kind = random();
    if (kind < 0.35) return text(Math.floor(random() * 8), random() < 0.5 ? plain : [...plain, ...TRICKY]);
    if (kind < 0.45) return pick(["", " ", "Lisbon ", " Porto", "\tFaro", "Braga\n", "\u00a0Évora\u00a0", "a\\", "\\t", '"', 'x"', "\\\\"]);
    if (kind < 0.6) return Math.round((random() - 0.5) * 1e6) / (random() < 0.5 ? 1 : 100);
    if (kind < 0.7) return random() < 0.5;
    if (kind < 0.75) return null;
    if (kind < 0.85 && depth === 0) return Array.from({ length: Math.floor(random() * 3) }, () => value(1));
    if (depth === 0) return { Inner: value(1), inner: "Text" };
    return "Nested";
  };
  const key = () => {
    const kind = random();
    if (kind < 0.6) return text(1 + Math.floor(random() * 6), [..."abcxyz_019"]).replace(/^[0-9]/, "k");
    if (kind < 0.8) return text(1 + Math.floor(random() * 6), [..."aBcXyZ_"]);
    return text(Math.floor(random() * 4), [..."a ", ...TRICKY]);
  };
  return Object.fromEntries(Array.from({ length: Math.floor(random() * 5) }, () => [key(), value(0)]));
}

describe("ss_fold_attributes", () => {
  it("agrees with the key-by-key folding on any object", async () => {
    const random = generator(20261127);
    const cases = [
      {},
      { city: "Lisbon", points: 150, vip: true, member_since: "2021-04-01" },
      { city: " Lisbon ", note: "Ünïcödé ΣΑΣ" },
      { city: 'Say "Hi"', path: "C:\\Temp\\", tab: "a\tb" },
      { City: "Lisbon" },
      { tags: ["VIP", " Gold "], address: { City: "Porto" } },
      ...Array.from({ length: 3000 }, () => caseOf(random)),
    ];
    const db = await getDb();
    const differing = await queryRows<{ attributes: unknown; folded: unknown; each: unknown }>(
      db,
      sql`select x.attributes, ss_fold_attributes(x.attributes) as folded, ss_fold_attributes_each(x.attributes) as each
          from jsonb_array_elements(${JSON.stringify(cases)}::jsonb) as x(attributes)
          where ss_fold_attributes(x.attributes) is distinct from ss_fold_attributes_each(x.attributes)`,
    );
    expect(differing).toEqual([]);
    // The cases reach both ways of folding: flat objects the text form lowercases, and every other kind.
    const [ways] = await queryRows<{ lowered: number; others: number }>(
      db,
      sql`select (count(*) filter (where same))::int as lowered, (count(*) filter (where not same))::int as others
          from (select lower(x.attributes::text)::jsonb = ss_fold_attributes_each(x.attributes) as same
                from jsonb_array_elements(${JSON.stringify(cases)}::jsonb) as x(attributes)) folded`,
    );
    expect(ways!.lowered).toBeGreaterThan(500);
    expect(ways!.others).toBeGreaterThan(500);
  });

  it("null gives null", async () => {
    const [row] = await queryRows<{ folded: unknown }>(await getDb(), sql`select ss_fold_attributes(null::jsonb) as folded`);
    expect(row!.folded).toBeNull();
  });

  it("is inlined into the statement that uses it, so no function call is made per row", async () => {
    const rows = await queryRows<Record<string, string>>(await getDb(), sql`explain verbose select ss_fold_attributes(c.attributes) from contacts c`);
    const plan = rows.map((row) => Object.values(row)[0]).join("\n");
    expect(plan).toMatch(/lower\(/);
  });
});
