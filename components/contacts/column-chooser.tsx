"use client";

import { Columns3 } from "lucide-react";
import * as React from "react";
import { Button } from "@/components/ui/button";
import { DropdownMenu, DropdownMenuCheckboxItem, DropdownMenuContent, DropdownMenuLabel, DropdownMenuSeparator, DropdownMenuTrigger } from "@/components/ui/dropdown-menu";
import { humanizeKey } from "./format";

const DEFAULT_COLUMNS = 3;
const storageKey = (scope: string) => `sendstream.contacts.columns.${scope}`;

const CHANGED = "sendstream:contact-columns";

function subscribe(onChange: () => void) {
  window.addEventListener("storage", onChange);
  window.addEventListener(CHANGED, onChange);
  return () => {
    window.removeEventListener("storage", onChange);
    window.removeEventListener(CHANGED, onChange);
  };
}

function readStored(scope: string): string | null {
  try {
    return window.localStorage.getItem(storageKey(scope));
  } catch {
    return null;
  }
}

function parseStored(stored: string | null): string[] | null {
  try {
    const parsed: unknown = stored ? JSON.parse(stored) : null;
    return Array.isArray(parsed) ? parsed.filter((key): key is string => typeof key === "string") : null;
  } catch {
    return null;
  }
}

/**
 * The attribute columns of the contacts table, kept in localStorage per workspace user (`scope`).
 * Until a choice is saved, the first three defined attributes show.
 */
export function useAttributeColumns(scope: string, keys: string[]) {
  const stored = React.useSyncExternalStore(subscribe, () => readStored(scope), () => null);
  const chosen = React.useMemo(() => parseStored(stored), [stored]);
  const shown = chosen === null ? keys.slice(0, DEFAULT_COLUMNS) : keys.filter((key) => chosen.includes(key));
  const toggle = (key: string, on: boolean) => {
    const next = on ? [...new Set([...shown, key])] : shown.filter((k) => k !== key);
    try {
      window.localStorage.setItem(storageKey(scope), JSON.stringify(next));
    } catch {
      // A full or blocked storage keeps the default columns.
    }
    window.dispatchEvent(new Event(CHANGED));
  };
  return { shown, toggle };
}

/** "Columns" menu: one checkbox per defined attribute, labelled the friendly way. */
export function ColumnChooser({ keys, shown, onToggle }: { keys: string[]; shown: string[]; onToggle: (key: string, on: boolean) => void }) {
  return (
    <DropdownMenu>
      <DropdownMenuTrigger asChild>
        <Button variant="outline" size="sm">
          <Columns3 aria-hidden />Columns
        </Button>
      </DropdownMenuTrigger>
      <DropdownMenuContent align="end" className="max-h-80 overflow-y-auto">
        <DropdownMenuLabel>Attribute columns</DropdownMenuLabel>
        <DropdownMenuSeparator />
        {keys.length === 0 && <p className="px-2 py-1.5 text-sm text-muted-foreground">No attributes defined yet.</p>}
        {keys.map((key) => (
          <DropdownMenuCheckboxItem key={key} checked={shown.includes(key)} onCheckedChange={(on) => onToggle(key, on === true)} onSelect={(event) => event.preventDefault()}>
            {humanizeKey(key)}
          </DropdownMenuCheckboxItem>
        ))}
      </DropdownMenuContent>
    </DropdownMenu>
  );
}
