"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { Loader2, Plus } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { fieldAria, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { createApiKeySchema, type CreateApiKeyInput, type CreatedApiKey } from "@/lib/api-keys/schemas";
import { requestJson } from "@/lib/http/client";

export function CreateApiKeyDialog({ onCreated }: { onCreated: (created: CreatedApiKey) => void }) {
  const [open, setOpen] = useState(false);
  const [formError, setFormError] = useState<string>();
  const { register, handleSubmit, formState, setError, reset } = useForm<CreateApiKeyInput>({
    resolver: zodResolver(createApiKeySchema),
    defaultValues: { name: "" },
  });
  const { errors, isSubmitting } = formState;

  function changeOpen(next: boolean) {
    if (isSubmitting) return;
    setOpen(next);
    if (!next) {
      reset();
      setFormError(undefined);
    }
  }

  const onSubmit = handleSubmit(async (values) => {
    setFormError(undefined);
    const result = await requestJson<CreatedApiKey>("/api/keys", { method: "POST", body: values });
    if (!result.ok) {
      const nameError = result.problem.errors?.find((error) => error.path === "name");
      if (nameError) setError("name", { message: nameError.message });
      else setFormError(result.problem.detail);
      return;
    }
    setOpen(false);
    reset();
    onCreated(result.data);
  });

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogTrigger asChild>
        <Button>
          <Plus aria-hidden />
          Create API key
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={onSubmit} noValidate className="grid gap-5">
          <DialogHeader>
            <DialogTitle>Create API key</DialogTitle>
            <DialogDescription>Use one key per integration, so you can revoke one without breaking the others.</DialogDescription>
          </DialogHeader>
          {formError && (
            <div role="alert" className="rounded-md border border-destructive/30 bg-destructive/5 px-3 py-2 text-sm text-destructive">
              {formError}
            </div>
          )}
          <FormField id="api-key-name" label="Name" error={errors.name?.message} hint="For example “Shopify store” or “Zapier – abandoned carts”.">
            <Input
              autoComplete="off"
              autoFocus
              required
              {...fieldAria("api-key-name", errors.name?.message, true)}
              {...register("name")}
            />
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => changeOpen(false)} disabled={isSubmitting}>
              Cancel
            </Button>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting && <Loader2 className="animate-spin" aria-hidden />}
              Create
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
