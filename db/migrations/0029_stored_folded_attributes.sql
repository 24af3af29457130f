-- hand-written:
-- A stored folded copy of contacts.attributes (ss_fold_attributes, migration 0027), so a case-insensitive
-- segment condition reads a stored value instead of folding every candidate row again. The expression
-- index of 0027 found the candidates fast, but its GIN match (jsonb_path_ops) is lossy, so Postgres re-ran
-- ss_fold_attributes(attributes) on each one to recheck it: 1.7 s for 55,000 candidates among 1,000,000
-- contacts (bench/RESULTS.md, "Segment counts"). The column is computed by Postgres on every insert and
-- update, so no writer can forget it; adding it computes it for the existing rows (a table rewrite).
-- Not in db/schema.ts: no application code writes or reads it except the segment compiler
-- (lib/audiences/segments.ts), which names it "c"."attributes_folded".
ALTER TABLE "contacts" ADD COLUMN IF NOT EXISTS "attributes_folded" jsonb GENERATED ALWAYS AS (ss_fold_attributes("attributes")) STORED;
--> statement-breakpoint
DROP INDEX IF EXISTS "contacts_attributes_folded_idx";
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "contacts_attributes_folded_idx" ON "contacts" USING gin ("attributes_folded" jsonb_path_ops);
