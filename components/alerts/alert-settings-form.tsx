"use client";

import { zodResolver } from "@hookform/resolvers/zod";
import { Loader2 } from "lucide-react";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { z } from "zod";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { fieldAria, FormError, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { ALERT_WINDOW_MINUTES, alertSettingsInputSchema, type AlertSettingsView } from "@/lib/alerts/schemas";
import { requestJson } from "@/lib/http/client";

// The form edits a new Slack URL as text ("" keeps the stored one); the request says keep, set or remove.
const formSchema = alertSettingsInputSchema.omit({ slackWebhookUrl: true }).extend({
  slackWebhookUrl: z.union([z.literal(""), alertSettingsInputSchema.shape.slackWebhookUrl.unwrap().unwrap()]),
});
type FormInput = z.input<typeof formSchema>;
type FormOutput = z.output<typeof formSchema>;

export function AlertSettingsForm({ initial }: { initial: AlertSettingsView }) {
  const [saved, setSaved] = useState(initial);
  const [formError, setFormError] = useState<string>();
  const { register, handleSubmit, formState, setError, reset } = useForm<FormInput, unknown, FormOutput>({
    resolver: zodResolver(formSchema),
    defaultValues: { failureRatePercent: initial.failureRatePercent, minMessages: initial.minMessages, emailOwners: initial.emailOwners, slackWebhookUrl: "" },
  });
  const { errors, isSubmitting, isDirty } = formState;

  async function put(body: Record<string, unknown>) {
    setFormError(undefined);
    const result = await requestJson<AlertSettingsView>("/api/alerts/settings", { method: "PUT", body });
    if (!result.ok) {
      let placed = false;
      for (const error of result.problem.errors ?? []) {
        if (error.path === "failureRatePercent" || error.path === "minMessages" || error.path === "slackWebhookUrl") {
          setError(error.path, { message: error.message });
          placed = true;
        }
      }
      if (!placed) setFormError(result.problem.detail);
      return null;
    }
    setSaved(result.data);
    reset({ failureRatePercent: result.data.failureRatePercent, minMessages: result.data.minMessages, emailOwners: result.data.emailOwners, slackWebhookUrl: "" });
    return result.data;
  }

  const onSubmit = handleSubmit(async ({ slackWebhookUrl, ...rest }) => {
    if (await put(slackWebhookUrl ? { ...rest, slackWebhookUrl } : rest)) toast.success("Alert settings saved");
  });

  async function removeSlack() {
    if (await put({ failureRatePercent: saved.failureRatePercent, minMessages: saved.minMessages, emailOwners: saved.emailOwners, slackWebhookUrl: null })) {
      toast.success("Slack webhook removed");
    }
  }

  return (
    <form onSubmit={onSubmit} noValidate>
      <Card>
        <CardHeader>
          <CardTitle>When to alert</CardTitle>
          <CardDescription>
            The workspace&apos;s owners see an alert on every page when a campaign fails too often over the last {ALERT_WINDOW_MINUTES} minutes, or when
            the WhatsApp sender keeps failing. Each alert is sent once, and closes by itself when the failures stop.
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <FormError>{formError}</FormError>
          <div className="grid gap-4 sm:grid-cols-2">
            <FormField id="alert-rate" label="Failure rate (%)" error={errors.failureRatePercent?.message} hint="Share of a campaign's messages that failed.">
              <Input type="number" inputMode="numeric" min={1} max={100} {...fieldAria("alert-rate", errors.failureRatePercent?.message, true)} {...register("failureRatePercent")} />
            </FormField>
            <FormField id="alert-min" label="Out of at least (messages)" error={errors.minMessages?.message} hint="A campaign with fewer outcomes in the window never alerts.">
              <Input type="number" inputMode="numeric" min={1} {...fieldAria("alert-min", errors.minMessages?.message, true)} {...register("minMessages")} />
            </FormField>
          </div>
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" className="mt-0.5" {...register("emailOwners")} />
            <span>
              Email the owners
              <span className="block text-xs text-muted-foreground">Sent with the mail transport the service is configured with.</span>
            </span>
          </label>
          <FormField
            id="alert-slack"
            label="Slack incoming webhook"
            error={errors.slackWebhookUrl?.message}
            hint={saved.slackWebhook ? `Posting to ${saved.slackWebhook}. Enter a new URL to replace it.` : "Optional. Any Slack-compatible incoming webhook (Slack, Mattermost, Rocket.Chat)."}
          >
            <div className="flex flex-col gap-2 sm:flex-row">
              <Input
                type="url"
                autoComplete="off"
                spellCheck={false}
                placeholder="https://hooks.slack.com/services/…"
                {...fieldAria("alert-slack", errors.slackWebhookUrl?.message, true)}
                {...register("slackWebhookUrl")}
              />
              {saved.slackWebhook && (
                <Button type="button" variant="outline" className="shrink-0" onClick={removeSlack} disabled={isSubmitting}>
                  Remove webhook
                </Button>
              )}
            </div>
          </FormField>
        </CardContent>
        <CardFooter className="justify-end">
          <Button type="submit" disabled={isSubmitting || !isDirty}>
            {isSubmitting && <Loader2 className="animate-spin" aria-hidden />}
            Save
          </Button>
        </CardFooter>
      </Card>
    </form>
  );
}
