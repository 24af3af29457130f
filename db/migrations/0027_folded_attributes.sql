-- hand-written:
-- Text conditions of segments ignore case and surrounding white space unless a condition asks to match
-- case (lib/audiences/segments.ts). These two functions are the one definition of that folding, used by
-- the segment SQL for values and stored attributes alike; the expression index keeps a folded "equals"
-- as index-served as the exact one (contacts_attributes_idx). ss_fold_attributes repeats ss_fold_text's body
-- rather than calling it: an index expression must not depend on the search_path.
CREATE OR REPLACE FUNCTION ss_fold_text(value text) RETURNS text
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT lower(btrim(value, E' \t\r\n\u00a0')) $$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION ss_fold_attributes(attributes jsonb) RETURNS jsonb
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT coalesce(jsonb_object_agg(key, CASE WHEN jsonb_typeof(value) = 'string' THEN to_jsonb(lower(btrim(value #>> '{}', E' \t\r\n\u00a0'))) ELSE value END), '{}'::jsonb) FROM jsonb_each(attributes) $$;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "contacts_attributes_folded_idx" ON "contacts" USING gin (ss_fold_attributes("attributes") jsonb_path_ops);
