-- hand-written:
-- ss_fold_attributes (migration 0027) computes contacts.attributes_folded on every write of a contact. It
-- took about 14 µs a row (a SQL function over jsonb_each, run by the function executor each time): 13 s of
-- a million-row import on 2 cores (bench/RESULTS.md, "Contact import"). It now returns the same value for every
-- input, with a shortcut for the attributes the application writes: when the text form of the object is
-- flat (lowercase identifier keys; string, number, boolean or null values) and no string starts or ends
-- with the white space folding trims, folding it is lowercasing its text, about 5 µs a row. Any other
-- object takes the former definition, kept as ss_fold_attributes_each.
-- The function is no longer STRICT, so Postgres inlines it into the generated column's expression (null
-- still gives null: the CASE falls through to the strict ss_fold_attributes_each). The stored values do not
-- change, so nothing is rewritten. The inlined body is resolved under the caller's search_path, so it names
-- ss_fold_attributes_each with the schema this migration runs in.
CREATE OR REPLACE FUNCTION ss_fold_attributes_each(attributes jsonb) RETURNS jsonb
  LANGUAGE sql IMMUTABLE STRICT PARALLEL SAFE
  AS $$ SELECT coalesce(jsonb_object_agg(key, CASE WHEN jsonb_typeof(value) = 'string' THEN to_jsonb(lower(btrim(value #>> '{}', E' \t\r\n\u00a0'))) ELSE value END), '{}'::jsonb) FROM jsonb_each(attributes) $$;
--> statement-breakpoint
DO $migration$
BEGIN
  EXECUTE format($function$
    CREATE OR REPLACE FUNCTION ss_fold_attributes(attributes jsonb) RETURNS jsonb
      LANGUAGE sql IMMUTABLE PARALLEL SAFE
      AS $body$ SELECT CASE
        WHEN attributes::text ~ '^\{("[a-z_][a-z0-9_]*": ("(([^"\\ \u00a0]|\\[^tnr])(([^"\\]|\\.)*([^"\\ \u00a0]|\\[^tnr]))?)?"|[-0-9.e+]+|true|false|null)(, |(?=\})))*\}$'
          THEN lower(attributes::text)::jsonb
        ELSE %I.ss_fold_attributes_each(attributes)
      END $body$
  $function$, current_schema());
END
$migration$;
