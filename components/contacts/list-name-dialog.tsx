"use client";

import * as React from "react";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { FormField, fieldAria } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";
import type { ContactList } from "./types";

/** Create a list (no `list`) or rename one. */
export function ListNameDialog({ open, onOpenChange, list, onSaved }: { open: boolean; onOpenChange: (open: boolean) => void; list?: ContactList; onSaved: () => void }) {
  const [name, setName] = React.useState(list?.name ?? "");
  const [error, setError] = React.useState<string | undefined>();
  const [busy, setBusy] = React.useState(false);
  const title = list ? "Rename list" : "New list";

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    if (!name.trim()) {
      setError("Enter a name.");
      return;
    }
    setBusy(true);
    const result = await requestJson(list ? `/api/v1/lists/${list.id}` : "/api/v1/lists", { method: list ? "PATCH" : "POST", body: { name: name.trim() } });
    setBusy(false);
    if (!result.ok) {
      setError(result.problem.errors?.find((e) => e.path === "name")?.message ?? result.problem.detail);
      return;
    }
    toast.success(list ? "List renamed." : "List created.");
    onOpenChange(false);
    onSaved();
  }

  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>{title}</DialogTitle>
          <DialogDescription>A static audience: contacts join it by import, by hand or through the API.</DialogDescription>
        </DialogHeader>
        <form onSubmit={submit} className="grid gap-4">
          <FormField id="list-name" label="Name" error={error}>
            <Input {...fieldAria("list-name", error)} value={name} onChange={(event) => setName(event.target.value)} maxLength={100} autoFocus />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)}>Cancel</Button>
            <Button type="submit" disabled={busy}>{list ? "Save" : "Create list"}</Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
