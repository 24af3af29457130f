"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField, fieldAria } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";

/** The workspace's name: editable by its owner, read-only for everyone else. */
export function WorkspaceNameForm({ initialName, canRename, maxLength }: { initialName: string; canRename: boolean; maxLength: number }) {
  const router = useRouter();
  const [saved, setSaved] = useState(initialName);
  const [name, setName] = useState(initialName);
  const [error, setError] = useState<string>();
  const [saving, setSaving] = useState(false);
  const unchanged = name.trim() === saved;

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setError(undefined);
    setSaving(true);
    const result = await requestJson<{ id: string; name: string }>("/api/workspace", { method: "PATCH", body: { name } });
    setSaving(false);
    if (!result.ok) {
      setError(result.problem.errors?.find((e) => e.path === "name")?.message ?? result.problem.detail);
      return;
    }
    setSaved(result.data.name);
    setName(result.data.name);
    toast.success("Workspace renamed");
    // The sidebar and anything else showing the name render on the server.
    router.refresh();
  }

  return (
    <form onSubmit={save} noValidate>
      <Card>
        <CardHeader>
          <CardTitle>Workspace name</CardTitle>
          <CardDescription>Shown in the sidebar, in the audit log and to teammates. Your contacts never see it.</CardDescription>
        </CardHeader>
        <CardContent>
          <FormField
            id="workspace-name"
            label="Name"
            error={error}
            hint={canRename ? `Up to ${maxLength} characters.` : "Only the workspace's owner can rename it."}
          >
            <Input
              {...fieldAria("workspace-name", error, true)}
              value={name}
              maxLength={maxLength + 20}
              autoComplete="organization"
              readOnly={!canRename}
              onChange={(event) => setName(event.target.value)}
              className="max-w-md"
            />
          </FormField>
        </CardContent>
        {canRename && (
          <CardFooter className="gap-2">
            <Button type="submit" disabled={saving || unchanged}>
              {saving ? "Saving…" : "Save name"}
            </Button>
            {!unchanged && (
              <Button type="button" variant="ghost" disabled={saving} onClick={() => {
                  setName(saved);
                  setError(undefined);
                }}>
                Cancel
              </Button>
            )}
          </CardFooter>
        )}
      </Card>
    </form>
  );
}
