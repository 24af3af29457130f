// Field paths into a trigger request body: `customer.phone`, `line_items[0].title`,
// `note_attributes[name=gift_message].value`. A plain key (`phone`) is a path of one step.
// Deliberately small: keys and matched values are letters, digits, `_` and `-`; no quoting, no
// wildcards. Reading never walks inherited properties. Kept beside the campaign schemas that
// validate paths (lib/trigger re-exports it: it reads request bodies with it).
import { z } from "zod";

export const MAX_FIELD_PATH_LENGTH = 200;
export const MAX_FIELD_PATH_DEPTH = 10;

export type PathStep = { kind: "key"; key: string } | { kind: "index"; index: number } | { kind: "match"; key: string; value: string };

export type ParsedFieldPath = { ok: true; steps: PathStep[] } | { ok: false; reason: string };

const KEY = "[A-Za-z0-9_-]+";
const KEY_AT_START = new RegExp(`^${KEY}`);
const DOT_KEY = new RegExp(`^\\.(${KEY})`);
const INDEX = /^\[(0|[1-9]\d{0,3})\]/;
const MATCH = new RegExp(`^\\[(${KEY})=(${KEY})\\]`);
const RESERVED_KEYS = new Set(["__proto__", "constructor", "prototype"]);

export const FIELD_PATH_HELP =
  "keys of letters, digits, _ and - joined by dots, [0] for an array item, [key=value] for the item whose key has that value, such as customer.phone, line_items[0].title or note_attributes[name=gift_message].value";

export function parseFieldPath(text: string): ParsedFieldPath {
  if (text === "") return { ok: false, reason: "it is empty" };
  if (text.length > MAX_FIELD_PATH_LENGTH) return { ok: false, reason: `it is longer than ${MAX_FIELD_PATH_LENGTH} characters` };
  const first = KEY_AT_START.exec(text);
  if (!first) return { ok: false, reason: "it must start with a key" };
  const steps: PathStep[] = [{ kind: "key", key: first[0] }];
  let rest = text.slice(first[0].length);
  while (rest !== "") {
    let match: RegExpExecArray | null;
    if ((match = DOT_KEY.exec(rest))) steps.push({ kind: "key", key: match[1]! });
    else if ((match = INDEX.exec(rest))) steps.push({ kind: "index", index: Number(match[1]) });
    else if ((match = MATCH.exec(rest))) steps.push({ kind: "match", key: match[1]!, value: match[2]! });
    else return { ok: false, reason: `unexpected text at "${rest.slice(0, 20)}"` };
    rest = rest.slice(match[0].length);
    if (steps.length > MAX_FIELD_PATH_DEPTH) return { ok: false, reason: `it is deeper than ${MAX_FIELD_PATH_DEPTH} levels` };
  }
  for (const step of steps) {
    if (step.kind !== "index" && RESERVED_KEYS.has(step.key)) return { ok: false, reason: `"${step.key}" is a reserved name` };
  }
  return { ok: true, steps };
}

export function formatFieldPath(steps: readonly PathStep[]): string {
  let out = "";
  for (const step of steps) {
    if (step.kind === "index") out += `[${step.index}]`;
    else if (step.kind === "match") out += `[${step.key}=${step.value}]`;
    else out += out === "" ? step.key : `.${step.key}`;
  }
  return out;
}

export function isFieldPath(text: string): boolean {
  return parseFieldPath(text).ok;
}

/** `customer.phone` and `customer.phone` written the same way compare equal; anything unparsable compares as written. */
export function canonicalFieldPath(text: string): string {
  const parsed = parseFieldPath(text);
  return parsed.ok ? formatFieldPath(parsed.steps) : text;
}

// Paths come from a handful of trigger configurations: parsing each once is enough.
const PARSE_CACHE_SIZE = 1000;
const parsedSteps = new Map<string, PathStep[] | null>();

function stepsOf(path: string): PathStep[] | null {
  let steps = parsedSteps.get(path);
  if (steps === undefined) {
    const parsed = parseFieldPath(path);
    steps = parsed.ok ? parsed.steps : null;
    if (parsedSteps.size >= PARSE_CACHE_SIZE) parsedSteps.delete(parsedSteps.keys().next().value!);
    parsedSteps.set(path, steps);
  }
  return steps;
}

/** The value at `path` in `body`, or undefined when any step is missing (or the path is not one). */
export function readFieldPath(body: unknown, path: string): unknown {
  const steps = stepsOf(path);
  return steps ? readSteps(body, steps) : undefined;
}

export function readSteps(body: unknown, steps: readonly PathStep[]): unknown {
  let current: unknown = body;
  for (const step of steps) {
    if (step.kind === "key") {
      if (!isPlainObject(current) || !Object.hasOwn(current, step.key)) return undefined;
      current = current[step.key];
    } else if (step.kind === "index") {
      if (!Array.isArray(current) || step.index >= current.length) return undefined;
      current = current[step.index];
    } else {
      if (!Array.isArray(current)) return undefined;
      current = current.find((item) => isPlainObject(item) && Object.hasOwn(item, step.key) && matches(item[step.key], step.value));
    }
  }
  return current;
}

function matches(value: unknown, wanted: string): boolean {
  return (typeof value === "string" || typeof value === "number" || typeof value === "boolean") && String(value) === wanted;
}

/**
 * Writes `value` at `path` in `body`, creating the objects and arrays on the way (a match step
 * creates the item `{key: value}`). Returns the body; for example payloads and test sends.
 */
export function writeFieldPath(body: Record<string, unknown>, path: string, value: unknown): Record<string, unknown> {
  const steps = stepsOf(path);
  if (!steps) return body;
  let current: unknown = body;
  steps.forEach((step, i) => {
    const last = i === steps.length - 1;
    const next = steps[i + 1];
    const fresh = () => (next?.kind === "key" ? {} : []);
    if (step.kind === "key" && isPlainObject(current)) {
      if (last) current[step.key] = value;
      else if (!containerFits(current[step.key], next!)) current[step.key] = fresh();
      current = current[step.key];
    } else if (step.kind === "index" && Array.isArray(current)) {
      while (current.length < step.index) current.push(null);
      if (last) current[step.index] = value;
      else if (!containerFits(current[step.index], next!)) current[step.index] = fresh();
      current = current[step.index];
    } else if (step.kind === "match" && Array.isArray(current)) {
      let item = current.find((entry) => isPlainObject(entry) && matches(entry[step.key], step.value)) as Record<string, unknown> | undefined;
      if (!item) {
        item = { [step.key]: step.value };
        current.push(item);
      }
      if (last) Object.assign(item, isPlainObject(value) ? value : {});
      current = item;
    }
  });
  return body;
}

function containerFits(value: unknown, next: PathStep): boolean {
  return next.kind === "key" ? isPlainObject(value) : Array.isArray(value);
}

/** The last key of a path (`customer.first_name` → `first_name`), for naming the attribute it fills. */
export function lastKey(path: string): string | null {
  const steps = stepsOf(path);
  const keys = (steps ?? []).filter((step) => step.kind === "key");
  return keys.length > 0 ? (keys[keys.length - 1] as { key: string }).key : null;
}

/** The keys of a path joined by `_` (`customer.first_name` → `customer_first_name`). */
export function joinedKeys(path: string): string {
  return (stepsOf(path) ?? []).flatMap((step) => (step.kind === "index" ? [] : [step.key])).join("_");
}

export const fieldPathSchema = z
  .string()
  .superRefine((text, ctx) => {
    const parsed = parseFieldPath(text);
    if (text === "") {
      // Short: it shows under every row just added and not yet filled in.
      ctx.addIssue({ code: "custom", message: "Required: a field of the request, such as customer.phone.", params: { code: "required" } });
    } else if (!parsed.ok) {
      ctx.addIssue({ code: "custom", message: `Not a field path (${parsed.reason}). Use ${FIELD_PATH_HELP}.`, params: { code: "invalid_path" } });
    }
  })
  .meta({
    description: `A field of the request body: ${FIELD_PATH_HELP}. At most ${MAX_FIELD_PATH_LENGTH} characters and ${MAX_FIELD_PATH_DEPTH} levels.`,
    example: "customer.phone",
  });

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
