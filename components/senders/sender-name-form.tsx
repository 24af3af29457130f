"use client";

import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { fieldAria, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";

/** Renames a sender (the name campaigns and the senders list show). */
export function SenderNameForm({ senderId, name }: { senderId: string; name: string }) {
  const router = useRouter();
  const [value, setValue] = useState(name);
  const [error, setError] = useState<string>();
  const [pending, setPending] = useState(false);

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setPending(true);
    setError(undefined);
    const result = await requestJson(`/api/v1/senders/${encodeURIComponent(senderId)}`, { method: "PATCH", body: { name: value } });
    setPending(false);
    if (!result.ok) {
      setError(result.problem.errors?.find((e) => e.path === "name")?.message ?? result.problem.detail);
      return;
    }
    toast.success("Sender renamed");
    router.refresh();
  }

  return (
    <form onSubmit={save} noValidate className="flex flex-wrap items-end gap-3">
      <FormField id="sender-name" label="Sender name" error={error} className="min-w-64 flex-1">
        <Input autoComplete="off" {...fieldAria("sender-name", error)} value={value} onChange={(event) => setValue(event.target.value)} />
      </FormField>
      <Button type="submit" variant="outline" disabled={pending || value.trim() === name}>
        Rename
      </Button>
    </form>
  );
}
