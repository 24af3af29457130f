import { FIELD_TYPES, type FieldType } from "@/lib/campaigns/schemas";
import { NativeSelect } from "../native-select";

/** What the user chose for one leaf of the captured body. */
export interface LeafChoice {
  add: boolean;
  type: FieldType;
}

const PATH_KEY = /^[A-Za-z0-9_-]+$/;
const RESERVED = new Set(["__proto__", "constructor", "prototype"]);
const MAX_ARRAY_ITEMS = 5;
const MAX_DEPTH = 10;

export interface BodyTreeProps {
  body: unknown;
  phonePath: string | null;
  onPhonePath: (path: string) => void;
  choices: Record<string, LeafChoice>;
  onChoice: (path: string, choice: LeafChoice) => void;
  /** Paths already mapped in the trigger node: shown, not offered again. */
  mapped: ReadonlySet<string>;
  guessedTypes: ReadonlyMap<string, FieldType>;
}

/**
 * The captured body as a tree: objects and arrays are collapsible groups (native `<details>`, so
 * they open with Enter or Space), each leaf a row with its full path, its value, a radio to make it
 * the phone and a checkbox to add it as a field with a type.
 */
export function BodyTree(props: BodyTreeProps) {
  return (
    <div role="group" aria-label="Captured request body" className="max-h-[55vh] min-w-0 overflow-y-auto rounded-md border p-2">
      <Children value={props.body} prefix="" depth={0} {...props} />
    </div>
  );
}

function Children({ value, prefix, depth, ...props }: { value: unknown; prefix: string; depth: number } & BodyTreeProps) {
  const entries: [string, string, unknown][] = Array.isArray(value)
    ? value.slice(0, MAX_ARRAY_ITEMS).map((child, index) => [`[${index}]`, `${prefix}[${index}]`, child])
    : Object.entries(value as Record<string, unknown>)
        .filter(([key]) => PATH_KEY.test(key) && !RESERVED.has(key))
        .map(([key, child]) => [key, prefix ? `${prefix}.${key}` : key, child]);
  const hidden = Array.isArray(value) ? Math.max(0, value.length - MAX_ARRAY_ITEMS) : 0;
  return (
    <ul className="grid min-w-0 gap-1">
      {entries.map(([label, path, child]) => (
        <li key={path} className="min-w-0">
          {typeof child === "object" && child !== null ? (
            <details open={depth < 2} className="min-w-0">
              <summary className="cursor-pointer rounded px-1 py-0.5 font-mono text-sm break-all select-none hover:bg-muted/60">
                {label} <span className="text-xs text-muted-foreground">{Array.isArray(child) ? `[${child.length}]` : "{…}"}</span>
              </summary>
              {depth + 1 < MAX_DEPTH ? (
                <div className="ml-1.5 border-l pl-2">
                  <Children value={child} prefix={path} depth={depth + 1} {...props} />
                </div>
              ) : (
                <p className="pl-2 text-xs text-muted-foreground">Too deep to pick from.</p>
              )}
            </details>
          ) : (
            <Leaf path={path} label={label} value={child} {...props} />
          )}
        </li>
      ))}
      {hidden > 0 && <li className="px-1 text-xs text-muted-foreground">and {hidden} more items (pick from the first ones)</li>}
    </ul>
  );
}

function Leaf({ path, label, value, phonePath, onPhonePath, choices, onChoice, mapped, guessedTypes }: { path: string; label: string; value: unknown } & BodyTreeProps) {
  const shown = value === null ? "null" : typeof value === "string" ? JSON.stringify(value) : String(value);
  const choice = choices[path] ?? { add: false, type: guessedTypes.get(path) ?? "string" };
  const isPhone = phonePath === path;
  return (
    <div className="grid min-w-0 gap-1 rounded-md px-1 py-1 hover:bg-muted/40 sm:grid-cols-[minmax(0,1fr)_auto] sm:items-center sm:gap-3">
      <div className="min-w-0">
        <code className="font-mono text-sm break-all" title={path}>
          {label}
        </code>
        <span className="ml-2 font-mono text-xs break-all text-muted-foreground">{shown.slice(0, 80)}</span>
        {path !== label && <p className="font-mono text-[11px] break-all text-muted-foreground/80">{path}</p>}
      </div>
      <div className="flex flex-wrap items-center gap-x-3 gap-y-1">
        <label className="flex items-center gap-1.5 text-xs">
          <input type="radio" name="phone-path" className="size-4 accent-[var(--primary)]" aria-label={`Use ${path} as the phone number`} checked={isPhone} onChange={() => onPhonePath(path)} />
          <span aria-hidden>Phone</span>
        </label>
        {mapped.has(path) ? (
          <span className="text-xs text-muted-foreground">Already mapped</span>
        ) : (
          <>
            <label className="flex items-center gap-1.5 text-xs">
              <input
                type="checkbox"
                className="size-4 accent-[var(--primary)]"
                aria-label={`Add ${path}`}
                checked={choice.add && !isPhone}
                disabled={isPhone}
                onChange={(event) => onChoice(path, { ...choice, add: event.target.checked })}
              />
              <span aria-hidden>Add</span>
            </label>
            <NativeSelect aria-label={`Type of ${path}`} className="w-28" value={choice.type} onChange={(event) => onChoice(path, { ...choice, type: event.target.value as FieldType })}>
              {FIELD_TYPES.map((type) => (
                <option key={type} value={type}>
                  {type}
                </option>
              ))}
            </NativeSelect>
          </>
        )}
      </div>
    </div>
  );
}
