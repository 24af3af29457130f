import { Fragment } from "react";
import { InlineText } from "./inline-text";

type JsonSchema = Record<string, unknown>;

export interface SchemaRow {
  path: string;
  type: string;
  required: boolean;
  description: string;
  constraints: string[];
}

const MAX_DEPTH = 5;
const COMPONENT_REF = "#/components/schemas/";

/** The named schema a response returns as a whole (`Campaign`), documented once in its own section; else null. */
export function referencedObject(schema: JsonSchema | undefined): string | null {
  const ref = schema?.$ref;
  return typeof ref === "string" && ref.startsWith(COMPONENT_REF) ? ref.slice(COMPONENT_REF.length) : null;
}

export const objectAnchor = (name: string) => `object-${name.toLowerCase()}`;

/** `CampaignPage` → "Campaign page". */
export const objectTitle = (name: string) => name.replace(/(?<=[a-z])(?=[A-Z])/g, " ").replace(/ [A-Z]/g, (letter) => letter.toLowerCase());

function resolve(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema {
  const name = referencedObject(schema);
  return name ? resolve(components[name] ?? {}, components) : schema;
}

function variants(schema: JsonSchema, components: Record<string, JsonSchema>): JsonSchema[] {
  const resolved = resolve(schema, components);
  const list = (resolved.anyOf ?? resolved.oneOf) as JsonSchema[] | undefined;
  return list ? list.flatMap((item) => variants(item, components)) : [resolved];
}

function typeLabel(schema: JsonSchema, components: Record<string, JsonSchema>): string {
  const labels = variants(schema, components).map((variant) => {
    if (variant.const !== undefined) return JSON.stringify(variant.const);
    if (variant.type === "array") return `${typeLabel((variant.items as JsonSchema) ?? {}, components)}[]`;
    if (typeof variant.type === "string") return variant.type;
    return "any";
  });
  return [...new Set(labels)].join(" | ");
}

function constraintsOf(schema: JsonSchema): string[] {
  const out: string[] = [];
  if (Array.isArray(schema.enum)) out.push(`one of ${schema.enum.map((v) => `\`${String(v)}\``).join(", ")}`);
  if (schema.format === "date-time") out.push("ISO 8601 UTC");
  if (typeof schema.minLength === "number" && schema.minLength > 0) out.push(`min length ${schema.minLength}`);
  if (typeof schema.maxLength === "number") out.push(`max length ${schema.maxLength}`);
  if (typeof schema.minimum === "number") out.push(`≥ ${schema.minimum}`);
  if (typeof schema.maximum === "number" && schema.maximum < Number.MAX_SAFE_INTEGER) out.push(`≤ ${schema.maximum}`);
  if (typeof schema.minItems === "number" && schema.minItems > 0) out.push(`at least ${schema.minItems} items`);
  if (typeof schema.maxItems === "number") out.push(`at most ${schema.maxItems} items`);
  if (typeof schema.pattern === "string") out.push(`pattern \`${schema.pattern}\``);
  if (schema.default !== undefined) out.push(`default \`${JSON.stringify(schema.default)}\``);
  return out;
}

/** A JSON Schema flattened into one row per member (`a.b`, `list[].c`, `map.<name>`). */
export function schemaRows(schema: JsonSchema, components: Record<string, JsonSchema>, prefix = "", depth = 0): SchemaRow[] {
  if (depth > MAX_DEPTH) return [];
  const rows: SchemaRow[] = [];
  for (const variant of variants(schema, components)) {
    const target = variant.type === "array" ? variants((variant.items as JsonSchema) ?? {}, components).find((v) => v.type === "object") : variant;
    if (!target || target.type !== "object") continue;
    const base = variant.type === "array" ? `${prefix}[]` : prefix;
    const required = new Set((target.required as string[] | undefined) ?? []);
    for (const [name, member] of Object.entries((target.properties as Record<string, JsonSchema>) ?? {})) {
      const path = base ? `${base}.${name}` : name;
      const resolved = variants(member, components);
      const primary = resolved.find((v) => v.type !== "null") ?? resolved[0]!;
      rows.push({
        path,
        type: typeLabel(member, components),
        required: required.has(name),
        description: String(resolve(member, components).description ?? primary.description ?? ""),
        constraints: constraintsOf(primary),
      });
      rows.push(...schemaRows(member, components, path, depth + 1));
    }
    const extra = target.additionalProperties;
    if (extra && typeof extra === "object" && Object.keys(extra).length > 0 && !target.properties) {
      const path = `${base ? `${base}.` : ""}<name>`;
      const names = target.propertyNames as JsonSchema | undefined;
      rows.push({
        path,
        type: typeLabel(extra as JsonSchema, components),
        required: false,
        description: "",
        constraints: names?.pattern ? [`names match \`${String(names.pattern)}\``] : [],
      });
    }
  }
  const seen = new Set<string>();
  return rows.filter((row) => (seen.has(row.path) ? false : (seen.add(row.path), true)));
}

/** A path segment longer than this may also wrap between the words of its name. */
const LONG_NAME = 16;

/** Break opportunities in a field's path: after each dot, and inside a long name between its words. */
export function pathBreaks(path: string): string[] {
  return path.split(/(?<=\.)/).flatMap((part) => (part.length > LONG_NAME ? part.split(/(?=[A-Z])/) : [part]));
}

/** `a.b[].c` that may wrap where pathBreaks says: long paths leave the description its room in a narrow column. */
function FieldPath({ path }: { path: string }) {
  return pathBreaks(path).map((part, index) => (
    <Fragment key={index}>
      {index > 0 ? <wbr /> : null}
      {part}
    </Fragment>
  ));
}

/**
 * Classes of the docs' field tables. On a phone each row stacks (its name and type on one line, the
 * description below at full width) instead of squeezing the description into a third of 390 px and
 * scrolling the table sideways; the explicit roles keep it a table for assistive technology, which
 * loses a table's semantics once its rows are not displayed as table rows.
 */
export const fieldTable = {
  table: "w-full text-left text-sm",
  head: "bg-muted/60 text-xs text-muted-foreground max-sm:sr-only",
  /** With the row's columns on a phone (`max-sm:grid-cols-…`: the cells before the description). */
  row: "align-top max-sm:grid max-sm:gap-x-3 max-sm:gap-y-1 max-sm:px-3 max-sm:py-2.5",
  cell: "px-3 py-2 max-sm:p-0",
  /** The description: the whole row's width on a phone. */
  wide: "px-3 py-2 max-sm:col-span-full max-sm:p-0",
} as const;

export function SchemaTable({ schema, components, caption }: { schema: JsonSchema; components: Record<string, JsonSchema>; caption: string }) {
  const rows = schemaRows(schema, components);
  if (rows.length === 0) return null;
  return (
    <div tabIndex={0} role="region" aria-label={caption} className="overflow-x-auto rounded-lg border focus-visible:ring-[3px] focus-visible:ring-ring focus-visible:outline-none">
      <table role="table" className={fieldTable.table}>
        <caption className="sr-only">{caption}</caption>
        <thead role="rowgroup" className={fieldTable.head}>
          <tr role="row">
            <th role="columnheader" scope="col" className="px-3 py-2 font-medium">Field</th>
            <th role="columnheader" scope="col" className="px-3 py-2 font-medium">Type</th>
            <th role="columnheader" scope="col" className="px-3 py-2 font-medium">Description</th>
          </tr>
        </thead>
        <tbody role="rowgroup" className="divide-y">
          {rows.map((row) => (
            <tr role="row" key={row.path} className={`${fieldTable.row} max-sm:grid-cols-[auto_minmax(0,1fr)]`}>
              <td role="cell" className={`${fieldTable.cell} font-mono text-[12.5px]`}>
                <FieldPath path={row.path} />{" "}
                {row.required ? <span className="font-sans text-[11px] font-medium whitespace-nowrap text-destructive">required</span> : null}
              </td>
              <td role="cell" className={`${fieldTable.cell} font-mono text-[12px] text-muted-foreground max-sm:[overflow-wrap:anywhere]`}>{row.type}</td>
              {/* A long pattern or example may break anywhere: unbroken, it widened the table past its column. */}
              <td role="cell" className={`${fieldTable.wide} min-w-[10rem] text-[13px] text-muted-foreground [overflow-wrap:anywhere] max-sm:min-w-0`}>
                {row.description ? <InlineText text={row.description} /> : null}
                {row.constraints.length > 0 ? (
                  <span className="block text-[12px] text-muted-foreground">
                    <InlineText text={row.constraints.join(" · ")} />
                  </span>
                ) : null}
              </td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}
