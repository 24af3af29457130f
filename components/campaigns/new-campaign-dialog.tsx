"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { Plus, Users, Webhook } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { useForm } from "react-hook-form";
import type { z } from "zod";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle, DialogTrigger } from "@/components/ui/dialog";
import { FormField, fieldAria } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { createCampaignSchema } from "@/lib/campaigns/schemas";
import { requestJson } from "@/lib/http/client";

type FormInput = z.input<typeof createCampaignSchema>;
type FormOutput = z.output<typeof createCampaignSchema>;

/** `defaultOpen`: opened on arrival (the checklist's "New campaign" link, `/campaigns?new=1`). */
export function NewCampaignDialog({ variant = "default", defaultOpen = false }: { variant?: "default" | "outline"; defaultOpen?: boolean }) {
  const router = useRouter();
  const [open, setOpen] = useState(defaultOpen);
  const form = useForm<FormInput, unknown, FormOutput>({ resolver: zodResolver(createCampaignSchema), defaultValues: { name: "", kind: "trigger" } });
  const nameError = form.formState.errors.name?.message;

  async function submit(values: FormOutput) {
    const result = await requestJson<{ id: string }>("/api/v1/campaigns", { method: "POST", body: { name: values.name, kind: values.kind } });
    if (!result.ok) {
      const fieldError = result.problem.errors?.find((e) => e.path === "name");
      if (fieldError) form.setError("name", { message: fieldError.message });
      else toast.error(result.problem.detail);
      return;
    }
    setOpen(false);
    router.push(`/campaigns/${result.data.id}`);
  }

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        setOpen(next);
        if (!next) form.reset();
      }}
    >
      <DialogTrigger asChild>
        <Button variant={variant}>
          <Plus aria-hidden />
          New campaign
        </Button>
      </DialogTrigger>
      <DialogContent>
        <form onSubmit={form.handleSubmit(submit)} className="grid gap-5" noValidate>
          <DialogHeader>
            <DialogTitle>New campaign</DialogTitle>
            <DialogDescription>Name it after what it sends, for example &quot;Order confirmation&quot;. You can change it later.</DialogDescription>
          </DialogHeader>
          <FormField id="campaign-name" label="Campaign name" error={nameError}>
            <Input {...fieldAria("campaign-name", nameError)} placeholder="Order confirmation" autoFocus {...form.register("name")} />
          </FormField>
          <fieldset className="grid gap-2">
            <legend className="mb-2 text-sm font-medium">Kind</legend>
            <label className="relative flex cursor-pointer gap-3 rounded-lg border p-3 has-[:checked]:border-primary has-[:checked]:bg-accent/60 has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring">
              <input type="radio" value="trigger" className="sr-only" {...form.register("kind")} />
              <Webhook className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
              <span className="grid gap-0.5">
                <span className="text-sm font-medium">Trigger</span>
                <span className="text-xs text-muted-foreground">Sends one message each time your system calls the campaign&apos;s webhook — order confirmations, shipping updates, reminders.</span>
              </span>
            </label>
            <label className="relative flex cursor-pointer gap-3 rounded-lg border p-3 has-[:checked]:border-primary has-[:checked]:bg-accent/60 has-[:focus-visible]:ring-[3px] has-[:focus-visible]:ring-ring">
              <input type="radio" value="bulk" className="sr-only" {...form.register("kind")} />
              <Users className="mt-0.5 size-5 shrink-0 text-primary" aria-hidden />
              <span className="grid gap-0.5">
                <span className="text-sm font-medium">Bulk</span>
                <span className="text-xs text-muted-foreground">Sends one message to everyone in an audience, now or at a time you schedule — announcements, offers, reminders.</span>
              </span>
            </label>
          </fieldset>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => setOpen(false)}>
              Cancel
            </Button>
            <Button type="submit" disabled={form.formState.isSubmitting}>
              {form.formState.isSubmitting ? "Creating…" : "Create campaign"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
