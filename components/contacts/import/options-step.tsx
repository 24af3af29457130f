"use client";

import { NativeSelect } from "@/components/campaigns/native-select";
import { Input } from "@/components/ui/input";
import type { ContactList } from "../types";

export type ListChoice = { kind: "none" } | { kind: "existing"; listId: string } | { kind: "new"; name: string };

function Radio({ name, value, checked, onChange, label, hint }: { name: string; value: string; checked: boolean; onChange: () => void; label: string; hint?: string }) {
  const id = `${name}-${value}`;
  return (
    <div className="flex items-start gap-2.5">
      <input id={id} type="radio" name={name} value={value} checked={checked} onChange={onChange} className="mt-0.5 size-4 accent-[var(--primary)]" />
      <label htmlFor={id} className="grid gap-0.5 text-sm">
        <span className="font-medium">{label}</span>
        {hint && <span className="text-xs text-muted-foreground">{hint}</span>}
      </label>
    </div>
  );
}

/** Step 3: what happens to contacts that already exist, and the list the imported contacts join. */
export function OptionsStep({
  updateExisting,
  onUpdateExisting,
  list,
  onList,
  lists,
  listError,
}: {
  updateExisting: boolean;
  onUpdateExisting: (value: boolean) => void;
  list: ListChoice;
  onList: (choice: ListChoice) => void;
  lists: ContactList[];
  listError: string | null;
}) {
  return (
    <div className="grid gap-6 md:grid-cols-2">
      <fieldset className="grid content-start gap-3 rounded-xl border bg-card p-4 shadow-xs">
        <legend className="px-1 text-sm font-medium">Contacts that already exist</legend>
        <Radio name="existing" value="update" checked={updateExisting} onChange={() => onUpdateExisting(true)} label="Update their attributes" hint="Values in the file replace the stored ones; attributes not in the file stay." />
        <Radio name="existing" value="leave" checked={!updateExisting} onChange={() => onUpdateExisting(false)} label="Leave them as they are" hint="Only new phone numbers are added." />
      </fieldset>
      <fieldset className="grid content-start gap-3 rounded-xl border bg-card p-4 shadow-xs">
        <legend className="px-1 text-sm font-medium">Add the imported contacts to a list</legend>
        <Radio name="list" value="none" checked={list.kind === "none"} onChange={() => onList({ kind: "none" })} label="No list" />
        <Radio
          name="list"
          value="existing"
          checked={list.kind === "existing"}
          onChange={() => onList({ kind: "existing", listId: lists[0]?.id ?? "" })}
          label="An existing list"
          hint={lists.length === 0 ? "There are no lists yet." : undefined}
        />
        {list.kind === "existing" && lists.length > 0 && (
          <NativeSelect aria-label="Existing list" value={list.listId} onChange={(event) => onList({ kind: "existing", listId: event.target.value })} className="ml-6.5">
            {lists.map((item) => (
              <option key={item.id} value={item.id}>{item.name}</option>
            ))}
          </NativeSelect>
        )}
        <Radio name="list" value="new" checked={list.kind === "new"} onChange={() => onList({ kind: "new", name: "" })} label="A new list" />
        {list.kind === "new" && (
          <Input aria-label="New list name" placeholder="e.g. Spring fair 2026" value={list.name} onChange={(event) => onList({ kind: "new", name: event.target.value })} maxLength={100} className="ml-6.5 w-auto" />
        )}
        {listError && <p role="alert" className="text-xs font-medium text-destructive">{listError}</p>}
      </fieldset>
    </div>
  );
}
