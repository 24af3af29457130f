"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { Loader2, Plus } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { fieldAria, FormError, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { apiKeyNameSchema, type CreatedApiKey } from "@/lib/api-keys/schemas";
import { requestJson } from "@/lib/http/client";

export interface ScopableCampaign {
  id: string;
  name: string;
}

const nameFormSchema = z.object({ name: apiKeyNameSchema });
type NameForm = z.input<typeof nameFormSchema>;

export function CreateApiKeyDialog({
  campaigns,
  onCreated,
  triggerId,
}: {
  campaigns: ScopableCampaign[];
  onCreated: (created: CreatedApiKey) => void;
  triggerId?: string;
}) {
  const [open, setOpen] = useState(false);
  const [formError, setFormError] = useState<string>();
  const [access, setAccess] = useState<"full" | "trigger">("full");
  const [selected, setSelected] = useState<string[]>([]);
  const [campaignError, setCampaignError] = useState<string>();
  const { register, handleSubmit, formState, setError, reset } = useForm<NameForm>({
    resolver: zodResolver(nameFormSchema),
    defaultValues: { name: "" },
  });
  const { errors, isSubmitting } = formState;

  function resetAll() {
    reset();
    setAccess("full");
    setSelected([]);
    setCampaignError(undefined);
    setFormError(undefined);
  }

  function changeOpen(next: boolean) {
    if (isSubmitting) return;
    setOpen(next);
    if (!next) resetAll();
  }

  function toggle(id: string, checked: boolean) {
    setCampaignError(undefined);
    setSelected((current) => (checked ? [...current, id] : current.filter((other) => other !== id)));
  }

  const onSubmit = handleSubmit(async (values) => {
    setFormError(undefined);
    if (access === "trigger" && selected.length === 0) {
      setCampaignError("Choose at least one campaign the key may trigger.");
      return;
    }
    const scope = access === "full" ? "full" : { type: "trigger", campaignIds: selected };
    const result = await requestJson<CreatedApiKey>("/api/keys", { method: "POST", body: { ...values, scope } });
    if (!result.ok) {
      const nameError = result.problem.errors?.find((error) => error.path === "name");
      const scopeError = result.problem.errors?.find((error) => error.path.startsWith("scope"));
      if (nameError) setError("name", { message: nameError.message });
      else if (scopeError) setCampaignError(scopeError.message);
      else setFormError(result.problem.detail);
      return;
    }
    setOpen(false);
    resetAll();
    onCreated(result.data);
  });

  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogTrigger asChild>
        <Button id={triggerId}>
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
          <FormError>{formError}</FormError>
          <FormField id="api-key-name" label="Name" error={errors.name?.message} hint="For example “Shopify store” or “Zapier – abandoned carts”.">
            <Input
              autoComplete="off"
              autoFocus
              required
              {...fieldAria("api-key-name", errors.name?.message, true)}
              {...register("name")}
            />
          </FormField>
          <fieldset className="grid gap-2">
            <legend className="mb-1 text-sm font-medium">Access</legend>
            <label className="flex items-start gap-2 text-sm">
              <input type="radio" name="api-key-access" value="full" checked={access === "full"} onChange={() => setAccess("full")} className="mt-0.5" />
              <span>
                Full access
                <span className="block text-xs text-muted-foreground">Every API route: campaigns, contacts, messages, logs and triggers.</span>
              </span>
            </label>
            <label className="flex items-start gap-2 text-sm">
              <input type="radio" name="api-key-access" value="trigger" checked={access === "trigger"} onChange={() => setAccess("trigger")} className="mt-0.5" />
              <span>
                Trigger only
                <span className="block text-xs text-muted-foreground">Only triggers the campaigns chosen below; everything else answers 403.</span>
              </span>
            </label>
            {access === "trigger" && (
              <div className="ml-6 grid gap-1.5" role="group" aria-label="Campaigns this key may trigger" aria-describedby={campaignError ? "api-key-campaigns-error" : undefined}>
                {campaigns.length === 0 ? (
                  <p className="text-sm text-muted-foreground">There are no trigger campaigns yet. Create one first, or give the key full access.</p>
                ) : (
                  <div className="grid max-h-48 gap-1.5 overflow-y-auto rounded-md border p-2">
                    {campaigns.map((campaign) => (
                      <label key={campaign.id} className="flex items-center gap-2 text-sm">
                        <input type="checkbox" checked={selected.includes(campaign.id)} onChange={(event) => toggle(campaign.id, event.target.checked)} />
                        <span className="truncate">{campaign.name}</span>
                      </label>
                    ))}
                  </div>
                )}
                {campaignError && (
                  <p id="api-key-campaigns-error" role="alert" className="text-xs text-destructive">
                    {campaignError}
                  </p>
                )}
              </div>
            )}
          </fieldset>
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
