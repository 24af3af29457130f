// Rendering a campaign's template for every contact of an audience inside one SQL statement.
// The template is rendered once in JS (lib/templates, the same code the trigger uses) with a marker
// in place of each variable; each marker then becomes an SQL expression over the contact's columns
// (`c.phone_number`, `c.name`, `c.attributes`): the mapped attribute, else the fallback, flattened
// like `normalizeParameterText`. So a million contacts render with no JS loop, identically to the
// trigger's rendering for plain text values.
import { sql, type SQL } from "drizzle-orm";
import { NAME_ATTRIBUTE, PHONE_ATTRIBUTE, type MessageConfig } from "@/lib/campaigns/schemas";
import { renderTemplate, listTemplateVariables, type TemplateLike } from "@/lib/templates";

const MARKER = /\u0001(\d+)\u0002/g;
const ENCODED_MARKER = /%01(\d+)%02/g;
const marker = (index: number) => `\u0001${index}\u0002`;

const WHITESPACE = " \t\n\r\f\v";

/** The contact's value of an attribute as text; empty (after trimming), objects and arrays count as missing (see `attributeText`). */
function attributeSql(attribute: string): SQL {
  const blank = (value: SQL) => sql`nullif(btrim(${value}, ${WHITESPACE}::text), '')`;
  if (attribute === PHONE_ATTRIBUTE) return sql`c.phone_number`;
  if (attribute === NAME_ATTRIBUTE) return sql`(case when ${blank(sql`c.name`)} is not null then c.name end)`;
  return sql`(case when jsonb_typeof(c.attributes -> ${attribute}::text) in ('string', 'number', 'boolean')
    and ${blank(sql`c.attributes ->> ${attribute}::text`)} is not null then c.attributes ->> ${attribute}::text end)`;
}

/**
 * `normalizeParameterText` in SQL: runs of new lines and tabs → one space, 5+ spaces → 4, trimmed.
 * Most values need none of it, so the regular expressions only run when a cheap test says so.
 */
function normalizedSql(value: SQL): SQL {
  return sql`(case when strpos(${value}, E'\n') = 0 and strpos(${value}, E'\r') = 0 and strpos(${value}, E'\t') = 0
      and strpos(${value}, '     ') = 0 and ${value} = btrim(${value}, ${WHITESPACE}::text) then ${value}
    else regexp_replace(regexp_replace(regexp_replace(${value}, '[\r\n\t]+', ' ', 'g'), ' {5,}', '    ', 'g'), '^\\s+|\\s+$', '', 'g') end)`;
}

const URI_UNRESERVED = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_.!~*'()";

/** `encodeURIComponent` in SQL (UTF-8 percent-encoding of everything but the unreserved characters). */
function uriEncodedSql(value: SQL): SQL {
  return sql`(case when translate(${value}, ${URI_UNRESERVED}::text, '') = '' then ${value} else (select coalesce(string_agg(case when strpos(${URI_UNRESERVED}::text, ch) > 0 then ch
      else regexp_replace(upper(encode(convert_to(ch, 'UTF8'), 'hex')), '(..)', '%\\1', 'g') end, '' order by ord), '')
    from regexp_split_to_table(${value}, '') with ordinality as t(ch, ord)) end)`;
}

export interface SqlRendering {
  /**
   * Joins to append after the contact (aliased `c`): each variable's value computed once per row
   * (raw in \`r\`, flattened in \`v\`), used by \`text\`, \`payload\` and \`missing\`.
   */
  joins: SQL;
  /** `rendered_text`: a variable without a value keeps its `{{…}}` placeholder (such messages are skipped). */
  text: SQL;
  /** `payload`: `{ template: { name, language: { code }, components } }`, as the trigger stores it. */
  payload: SQL;
  /** True when some variable has neither an attribute value nor a fallback for the contact. */
  missing: SQL;
  /** The joins `missing` alone needs (the raw values of the variables without a fallback; none when all have one). */
  missingJoins: SQL;
  /** Per variable without a fallback (by key): true when it has no value for the contact (after `missingJoins`). */
  missingByVariable: { key: string; missing: SQL }[];
}

/** The SQL expressions that render `template` with `messageConfig` for the contact aliased `c`. */
export function renderingSql(template: TemplateLike & { name: string; language: string }, messageConfig: MessageConfig): SqlRendering {
  const variables = listTemplateVariables(template);
  const byKey = new Map(messageConfig.variables.map((mapping) => [mapping.key, mapping]));
  const values: SQL[] = [];
  const raw: SQL[] = [];
  const flattened: SQL[] = [];
  const placeholders: string[] = [];
  const missingParts: SQL[] = [];
  const missingByVariable: { key: string; missing: SQL }[] = [];
  const rawWithoutFallback: SQL[] = [];
  const markerValues: Record<string, string> = {};
  variables.forEach((variable, index) => {
    const mapping = byKey.get(variable.key);
    const fromAttribute = mapping?.attribute ? attributeSql(mapping.attribute) : null;
    const fallback = mapping?.fallback && mapping.fallback.trim() !== "" ? mapping.fallback : null;
    let value: SQL;
    if (fromAttribute && fallback !== null) value = sql`coalesce(${fromAttribute}, ${fallback}::text)`;
    else if (fromAttribute) value = fromAttribute;
    else if (fallback !== null) value = sql`${fallback}::text`;
    else value = sql`null::text`;
    raw.push(sql`${value} as r${sql.raw(String(index))}`);
    values.push(sql.raw(`v.v${index}`));
    flattened.push(sql`${normalizedSql(sql.raw(`r.r${index}`))} as v${sql.raw(String(index))}`);
    placeholders.push(`{{${variable.name}}}`);
    if (fallback === null) {
      missingParts.push(sql.raw(`r.r${index} is null`));
      missingByVariable.push({ key: variable.key, missing: sql.raw(`r.r${index} is null`) });
      rawWithoutFallback.push(sql`${value} as r${sql.raw(String(index))}`);
    }
    markerValues[variable.key] = marker(index);
  });

  const rendered = renderTemplate(template, markerValues);

  const textOf = (literal: string, encoded: boolean): SQL => {
    const parts: SQL[] = [];
    const pattern = encoded ? new RegExp(`${MARKER.source}|${ENCODED_MARKER.source}`, "g") : MARKER;
    let last = 0;
    for (const match of literal.matchAll(pattern)) {
      if (match.index > last) parts.push(sql`${literal.slice(last, match.index)}::text`);
      const index = Number(match[1] ?? match[2]);
      const normalized = values[index]!;
      if (match[2] !== undefined) parts.push(sql`coalesce(${uriEncodedSql(normalized)}, '')`);
      else parts.push(sql`coalesce(${normalized}, ${placeholders[index]!}::text)`);
      last = match.index + match[0].length;
    }
    if (last < literal.length || parts.length === 0) parts.push(sql`${literal.slice(last)}::text`);
    return parts.length === 1 ? parts[0]! : sql`(${sql.join(parts, sql` || `)})`;
  };

  const jsonOf = (value: unknown): SQL => {
    if (typeof value === "string") {
      MARKER.lastIndex = 0;
      ENCODED_MARKER.lastIndex = 0;
      const hasMarker = new RegExp(MARKER.source).test(value) || new RegExp(ENCODED_MARKER.source).test(value);
      return hasMarker ? sql`to_jsonb(${textOf(value, true)})` : sql`to_jsonb(${value}::text)`;
    }
    if (Array.isArray(value)) {
      return value.length === 0 ? sql`'[]'::jsonb` : sql`jsonb_build_array(${sql.join(value.map(jsonOf), sql`, `)})`;
    }
    if (value && typeof value === "object") {
      const entries = Object.entries(value as Record<string, unknown>).filter(([, v]) => v !== undefined);
      if (entries.length === 0) return sql`'{}'::jsonb`;
      return sql`jsonb_build_object(${sql.join(
        entries.map(([k, v]) => sql`${k}::text, ${jsonOf(v)}`),
        sql`, `,
      )})`;
    }
    return sql`${JSON.stringify(value ?? null)}::jsonb`;
  };

  const payload = jsonOf({ template: { name: template.name, language: { code: template.language }, components: rendered.components } });
  const joins =
    raw.length === 0
      ? sql``
      : sql`cross join lateral (select ${sql.join(raw, sql`, `)}) r cross join lateral (select ${sql.join(flattened, sql`, `)}) v`;
  return {
    joins,
    text: textOf(rendered.text, false),
    payload,
    missing: missingParts.length === 0 ? sql`false` : sql`(${sql.join(missingParts, sql` or `)})`,
    missingJoins: rawWithoutFallback.length === 0 ? sql`` : sql`cross join lateral (select ${sql.join(rawWithoutFallback, sql`, `)}) r`,
    missingByVariable,
  };
}
