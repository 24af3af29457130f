"use client";

import { useState } from "react";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardFooter, CardHeader, CardTitle } from "@/components/ui/card";
import { FormField, fieldAria } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";

interface InboxSettings {
  replyAttributionHours: number;
  inboxMembersSeeAll: boolean;
  sandboxAudienceReplies: boolean;
}

const HOURS_ID = "workspace-reply-attribution-hours";

/** The replied step's window and who sees which conversations; owners and admins change them, members read them. */
export function InboxSettingsForm({ initial, canEdit, bounds }: { initial: InboxSettings; canEdit: boolean; bounds: { min: number; max: number } }) {
  const [saved, setSaved] = useState(initial);
  const [hours, setHours] = useState(String(initial.replyAttributionHours));
  const [seeAll, setSeeAll] = useState(initial.inboxMembersSeeAll);
  const [audience, setAudience] = useState(initial.sandboxAudienceReplies);
  const [errors, setErrors] = useState<{ hours?: string; form?: string }>({});
  const [saving, setSaving] = useState(false);
  const unchanged = hours === String(saved.replyAttributionHours) && seeAll === saved.inboxMembersSeeAll && audience === saved.sandboxAudienceReplies;

  async function save(event: React.FormEvent) {
    event.preventDefault();
    setErrors({});
    const parsed = Number(hours);
    if (hours.trim() === "" || !Number.isInteger(parsed) || parsed < bounds.min || parsed > bounds.max) {
      setErrors({ hours: `Give a whole number of hours from ${bounds.min} to ${bounds.max}.` });
      return;
    }
    setSaving(true);
    const result = await requestJson<InboxSettings>("/api/workspace/inbox-settings", { method: "PUT", body: { replyAttributionHours: parsed, inboxMembersSeeAll: seeAll, sandboxAudienceReplies: audience } });
    setSaving(false);
    if (!result.ok) {
      const hoursError = result.problem.errors?.find((e) => e.path === "replyAttributionHours")?.message;
      setErrors(hoursError ? { hours: hoursError } : { form: result.problem.detail });
      return;
    }
    setSaved(result.data);
    setHours(String(result.data.replyAttributionHours));
    setSeeAll(result.data.inboxMembersSeeAll);
    setAudience(result.data.sandboxAudienceReplies);
    toast.success("Inbox settings saved");
  }

  return (
    <form onSubmit={save} noValidate aria-labelledby="inbox-settings-title">
      <Card>
        <CardHeader>
          <CardTitle id="inbox-settings-title">Replies and inbox</CardTitle>
          <CardDescription>
            A reply counts for a campaign (its Replied number) when it comes within this window after one of the campaign&apos;s messages to the contact. A new window
            applies to replies from then on.
            {!canEdit && " Only owners and admins can change these settings."}
          </CardDescription>
        </CardHeader>
        <CardContent className="grid gap-5">
          <FormField id={HOURS_ID} label="Reply window (hours)" error={errors.hours} hint={`From ${bounds.min} to ${bounds.max} hours (a week); 72 unless changed.`}>
            <Input
              {...fieldAria(HOURS_ID, errors.hours, true)}
              type="number"
              inputMode="numeric"
              min={bounds.min}
              max={bounds.max}
              step={1}
              value={hours}
              onChange={(event) => setHours(event.target.value)}
              disabled={!canEdit}
              className="max-w-32"
            />
          </FormField>
          <fieldset className="grid gap-2" disabled={!canEdit}>
            <legend className="mb-1 text-sm font-medium">Which conversations members see</legend>
            <label className="flex items-start gap-2 text-sm">
              <input type="radio" name="inbox-members-see" checked={seeAll} onChange={() => setSeeAll(true)} className="mt-0.5 size-4 accent-[var(--primary)]" />
              Members see every conversation
            </label>
            <label className="flex items-start gap-2 text-sm">
              <input type="radio" name="inbox-members-see" checked={!seeAll} onChange={() => setSeeAll(false)} className="mt-0.5 size-4 accent-[var(--primary)]" />
              Members see only theirs and unassigned ones
            </label>
            <p className="text-xs text-muted-foreground">Owners and admins always see every conversation.</p>
          </fieldset>
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" checked={audience} onChange={(event) => setAudience(event.target.checked)} disabled={!canEdit} className="mt-0.5 size-4 accent-[var(--primary)]" />
            <span>
              Sandbox: contacts answer bulk campaigns
              <span className="block text-xs text-muted-foreground">
                On the sandbox number, four contacts of each bulk campaign reply after reading it (three questions and a STOP that opts them out), to try the
                inbox. Leave it off when your contacts are real customers.
              </span>
            </span>
          </label>
          {errors.form && (
            <p role="alert" className="text-sm text-destructive">
              {errors.form}
            </p>
          )}
        </CardContent>
        {canEdit && (
          <CardFooter className="gap-2">
            <Button type="submit" disabled={saving || unchanged}>
              {saving ? "Saving…" : "Save inbox settings"}
            </Button>
          </CardFooter>
        )}
      </Card>
    </form>
  );
}
