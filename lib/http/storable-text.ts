// Postgres text and jsonb cannot hold U+0000, and jsonb refuses unpaired UTF-16 surrogates: such input
// is refused as a validation error instead of failing the insert.
import type { FieldError } from "./errors";
import { formatPath } from "./problem";

const UNSTORABLE_TEXT = /\u0000|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/;
const UNSTORABLE_TEXT_ALL = new RegExp(UNSTORABLE_TEXT.source, "g");

export const STORABLE_TEXT_MESSAGE = "Contains a NUL character (\\u0000) or an unpaired surrogate, which cannot be stored.";

/** Whether a string can be stored as Postgres text / jsonb as it is. */
export function isStorableText(value: string): boolean {
  return !UNSTORABLE_TEXT.test(value);
}

/** The text with each character that cannot be stored replaced by U+FFFD (for text kept only to be shown back). */
export function toStorableText(value: string): string {
  return isStorableText(value) ? value : value.replace(UNSTORABLE_TEXT_ALL, "\ufffd");
}

/** Every string (and member name) in a JSON value that cannot be stored, with its path. */
export function unstorableTextErrors(value: unknown, path: (string | number)[] = []): FieldError[] {
  const error = (at: (string | number)[]) => ({ path: formatPath(at), code: "invalid_characters", message: STORABLE_TEXT_MESSAGE });
  if (typeof value === "string") return isStorableText(value) ? [] : [error(path)];
  if (Array.isArray(value)) return value.flatMap((item, index) => unstorableTextErrors(item, [...path, index]));
  if (typeof value === "object" && value !== null) {
    return Object.entries(value).flatMap(([key, item]) =>
      isStorableText(key) ? unstorableTextErrors(item, [...path, key]) : [error([...path, key])],
    );
  }
  return [];
}

/** A JSON value with `toStorableText` applied to every string and member name in it. */
export function storableJson<T>(value: T): T {
  if (typeof value === "string") return toStorableText(value) as T;
  if (Array.isArray(value)) return value.map((item: unknown) => storableJson(item)) as T;
  if (typeof value === "object" && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [toStorableText(key), storableJson(item)])) as T;
  }
  return value;
}
