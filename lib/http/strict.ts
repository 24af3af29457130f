// REST API bodies reject members the schema does not know (at any depth) instead of dropping
// them silently. The schemas stay the shared ones; this walks them beside the value.
import type { z } from "zod";
import type { FieldError } from "@/lib/http/errors";
import { formatPath } from "@/lib/http/problem";

type Path = (string | number)[];

interface Def {
  type: string;
  shape?: Record<string, z.ZodType>;
  catchall?: z.ZodType;
  innerType?: z.ZodType;
  in?: z.ZodType;
  element?: z.ZodType;
  options?: z.ZodType[];
  /** Discriminated unions: the member that picks the option. */
  discriminator?: string;
  values?: unknown[];
  left?: z.ZodType;
  right?: z.ZodType;
  valueType?: z.ZodType;
  getter?: () => z.ZodType;
}

const defOf = (schema: z.ZodType): Def => (schema as unknown as { _zod: { def: Def } })._zod.def;

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** The schema a wrapper (optional, default, pipe, lazy…) checks its value with; none for other kinds. */
function wrappedSchema(def: Def): z.ZodType | undefined {
  switch (def.type) {
    case "optional":
    case "nullable":
    case "default":
    case "prefault":
    case "readonly":
    case "nonoptional":
    case "catch":
      return def.innerType!;
    case "pipe":
      return def.in!;
    case "lazy":
      return def.getter!();
    default:
      return undefined;
  }
}

/** Keys an object schema accepts (through intersections, which combine two objects). */
function knownKeys(schema: z.ZodType): Map<string, z.ZodType> | null {
  const def = defOf(schema);
  switch (def.type) {
    case "object":
      return def.catchall && defOf(def.catchall).type !== "never" ? null : new Map(Object.entries(def.shape ?? {}));
    case "intersection": {
      const left = knownKeys(def.left!);
      const right = knownKeys(def.right!);
      return left && right ? new Map([...left, ...right]) : null;
    }
    default: {
      const inner = wrappedSchema(def);
      return inner ? knownKeys(inner) : null;
    }
  }
}

/** The option a discriminated union picks for `value` by its discriminator, if any. */
function discriminatedOption(def: Def, value: unknown): z.ZodType | undefined {
  const key = def.discriminator;
  if (!key || !isPlainObject(value)) return undefined;
  return (def.options ?? []).find((option) => {
    const member = knownKeys(option)?.get(key);
    return member !== undefined && (defOf(member).values ?? []).includes(value[key]);
  });
}

/** Every member of `value` (at any depth) that `schema` does not declare, as 422 field errors. */
export function unknownMemberErrors(schema: z.ZodType, value: unknown, path: Path = []): FieldError[] {
  const def = defOf(schema);
  switch (def.type) {
    case "array":
      return Array.isArray(value) ? value.flatMap((item, index) => unknownMemberErrors(def.element!, item, [...path, index])) : [];
    case "record":
      return isPlainObject(value) ? Object.entries(value).flatMap(([key, item]) => unknownMemberErrors(def.valueType!, item, [...path, key])) : [];
    case "union": {
      const chosen = discriminatedOption(def, value);
      if (chosen) return unknownMemberErrors(chosen, value, path);
      const results = (def.options ?? []).map((option) => unknownMemberErrors(option, value, path));
      return results.some((errors) => errors.length === 0) ? [] : (results[0] ?? []);
    }
    case "object":
    case "intersection": {
      if (!isPlainObject(value)) return [];
      const keys = knownKeys(schema);
      if (!keys) return [];
      return Object.entries(value).flatMap(([key, item]) => {
        const member = keys.get(key);
        if (!member) {
          return [{ path: formatPath([...path, key]), code: "unrecognized_key", message: `Unknown field "${key}".` }];
        }
        return unknownMemberErrors(member, item, [...path, key]);
      });
    }
    default: {
      const inner = wrappedSchema(def);
      return inner ? unknownMemberErrors(inner, value, path) : [];
    }
  }
}
