"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { Loader2 } from "lucide-react";
import { useState } from "react";
import { useForm, useWatch } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { fieldAria, FormError, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import {
  createWebhookEndpointSchema,
  TEST_ENDPOINT_URL,
  WEBHOOK_EVENT_LABELS,
  webhookEventTypes,
  type CreateWebhookEndpointInput,
  type WebhookEndpointView,
  type WebhookEndpointWithSecret,
} from "@/lib/event-webhooks/schemas";
import { requestJson } from "@/lib/http/client";

type FormValues = CreateWebhookEndpointInput;

/**
 * Adds an endpoint (`endpoint` null: the response carries its secret, shown once by the caller) or
 * changes one's URL, description and events.
 */
export function EndpointFormDialog({
  open,
  onOpenChange,
  endpoint,
  onSaved,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  endpoint: WebhookEndpointView | null;
  onSaved: (saved: { endpoint: WebhookEndpointView; secret?: string }) => void;
}) {
  const [formError, setFormError] = useState<string>();
  const { register, handleSubmit, formState, setError, reset, setValue, control } = useForm<FormValues>({
    resolver: zodResolver(createWebhookEndpointSchema),
    values: endpoint
      ? { url: endpoint.url, description: endpoint.description, events: endpoint.events }
      : { url: "", description: "", events: ["message.sent", "message.delivered", "message.read", "message.failed"] },
  });
  const { errors, isSubmitting } = formState;
  const testing = useWatch({ control, name: "url" }) === TEST_ENDPOINT_URL;

  function changeOpen(next: boolean) {
    if (isSubmitting) return;
    if (!next) {
      reset();
      setFormError(undefined);
    }
    onOpenChange(next);
  }

  const onSubmit = handleSubmit(async (values) => {
    setFormError(undefined);
    const result = endpoint
      ? await requestJson<WebhookEndpointView>(`/api/webhook-endpoints/${encodeURIComponent(endpoint.id)}`, { method: "PATCH", body: values })
      : await requestJson<WebhookEndpointWithSecret>("/api/webhook-endpoints", { method: "POST", body: values });
    if (!result.ok) {
      let placed = false;
      for (const error of result.problem.errors ?? []) {
        const field = error.path.split(/[.[]/)[0];
        if (field === "url" || field === "description" || field === "events") {
          setError(field, { message: error.message });
          placed = true;
        }
      }
      if (!placed) setFormError(result.problem.detail);
      return;
    }
    const saved = "secret" in result.data ? result.data : { endpoint: result.data as WebhookEndpointView };
    reset();
    onOpenChange(false);
    onSaved(saved);
  });

  const eventsError = errors.events?.message ?? errors.events?.root?.message;
  return (
    <Dialog open={open} onOpenChange={changeOpen}>
      <DialogContent className="max-w-lg">
        <form onSubmit={onSubmit} noValidate className="grid gap-5">
          <DialogHeader>
            <DialogTitle>{endpoint ? "Edit endpoint" : "Add endpoint"}</DialogTitle>
            <DialogDescription>
              Sendstream POSTs a signed JSON event to this URL each time one of the chosen things happens, and retries for 24 hours
              until it answers with a 2xx status.
            </DialogDescription>
          </DialogHeader>
          <FormError>{formError}</FormError>
          <label className="flex items-start gap-2 rounded-lg border p-3 text-sm">
            <input
              type="checkbox"
              className="mt-1"
              checked={testing}
              aria-describedby="webhook-test-hint"
              onChange={(event) => setValue("url", event.target.checked ? TEST_ENDPOINT_URL : "", { shouldValidate: formState.isSubmitted })}
            />
            <span>
              <span className="font-medium">Use a test endpoint</span>
              <span id="webhook-test-hint" className="block text-xs text-muted-foreground">
                Built in: events are signed as usual and shown on the endpoint&apos;s page, with their headers and signature check. Nothing leaves
                Sendstream, so it works before you have a receiver.
              </span>
            </span>
          </label>
          {!testing && (
            <FormField
              id="webhook-url"
              label="Endpoint URL"
              error={errors.url?.message}
              hint="An https:// address on the public internet. For a receiver on your own machine (http://localhost, 127.0.0.1), the server must set WEBHOOKS_ALLOW_PRIVATE_URLS=true."
            >
              <Input
                type="url"
                inputMode="url"
                autoComplete="off"
                spellCheck={false}
                autoFocus
                placeholder="https://example.com/webhooks/sendstream"
                {...fieldAria("webhook-url", errors.url?.message, true)}
                {...register("url")}
              />
            </FormField>
          )}
          <FormField id="webhook-description" label="Description (optional)" error={errors.description?.message}>
            <Input autoComplete="off" placeholder="Order system" {...fieldAria("webhook-description", errors.description?.message)} {...register("description")} />
          </FormField>
          <fieldset className="grid gap-2" aria-describedby={eventsError ? "webhook-events-error" : undefined}>
            <legend className="mb-1 text-sm font-medium">Events to send</legend>
            {webhookEventTypes.map((type) => (
              <label key={type} className="flex items-start gap-2 text-sm">
                <input type="checkbox" value={type} className="mt-1" {...register("events")} />
                <span>
                  <code className="font-mono text-[13px]">{type}</code>
                  <span className="block text-xs text-muted-foreground">{WEBHOOK_EVENT_LABELS[type]}</span>
                </span>
              </label>
            ))}
            {eventsError && (
              <p id="webhook-events-error" role="alert" className="text-xs font-medium text-destructive">
                {eventsError}
              </p>
            )}
          </fieldset>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => changeOpen(false)} disabled={isSubmitting}>
              Cancel
            </Button>
            <Button type="submit" disabled={isSubmitting}>
              {isSubmitting && <Loader2 className="animate-spin" aria-hidden />}
              {endpoint ? "Save changes" : "Add endpoint"}
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
