"use client";

import * as React from "react";
import {
  AlertDialog,
  AlertDialogAction,
  AlertDialogCancel,
  AlertDialogContent,
  AlertDialogDescription,
  AlertDialogFooter,
  AlertDialogHeader,
  AlertDialogTitle,
  AlertDialogTrigger,
} from "@/components/ui/alert-dialog";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";
import { NativeSelect } from "@/components/campaigns/native-select";
import { CONSENT_SOURCE_LABELS, CONSENT_STATUS_LABELS, formatDateTime, OPT_OUT_METHOD_LABELS } from "./format";
import type { Contact, ConsentStatus } from "./types";

const BADGE: Record<ConsentStatus, "success" | "warning" | "secondary"> = { subscribed: "success", unsubscribed: "warning", unknown: "secondary" };

/** The contact's consent (status, how and when it was set) and the controls to change it by hand. */
export function ConsentPanel({ contact, onChanged }: { contact: Contact; onChanged: () => void }) {
  const [busy, setBusy] = React.useState(false);
  const consent = contact.consent;
  const status: ConsentStatus = consent?.status ?? (consent?.optedOut ? "unsubscribed" : "unknown");
  // The status picked in the select, until it is saved (then the contact's own status shows again).
  const [picked, setPicked] = React.useState<ConsentStatus | null>(null);
  const choice = picked ?? status;
  const optedOut = status === "unsubscribed";

  async function save(next: ConsentStatus) {
    setBusy(true);
    const result = await requestJson(`/api/v1/contacts/${contact.id}`, { method: "PATCH", body: { consent: next } });
    setBusy(false);
    if (!result.ok) {
      toast.error(result.problem.detail);
      return;
    }
    setPicked(null);
    toast.success(next === "unsubscribed" ? "Contact opted out." : next === "subscribed" ? "Contact subscribed." : "Consent set to unknown.");
    onChanged();
  }

  const when = consent?.updatedAt ? (
    <>
      {" "}on <time dateTime={consent.updatedAt}>{formatDateTime(consent.updatedAt)}</time>
    </>
  ) : null;

  return (
    <Card>
      <CardHeader>
        <CardTitle>Consent</CardTitle>
        <CardDescription>Marketing campaigns reach only subscribed contacts; unsubscribed contacts get no campaign message.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-1.5" data-testid="consent-status">
          <Badge variant={BADGE[status]}>{CONSENT_STATUS_LABELS[status]}</Badge>
          {optedOut ? (
            <p className="text-sm break-words text-muted-foreground">
              {consent.method ? `Opted out ${OPT_OUT_METHOD_LABELS[consent.method] ?? consent.method}` : "Opted out"}
              {consent.detail ? (consent.method === "keyword" ? <> “{consent.detail}”</> : <> ({consent.detail})</>) : null}
              {consent.source === "button" ? " (Stop promotions button)" : null}
              {consent.optedOutAt ? <> on <time dateTime={consent.optedOutAt}>{formatDateTime(consent.optedOutAt)}</time></> : null}.
            </p>
          ) : status === "subscribed" ? (
            <p className="text-sm break-words text-muted-foreground">
              Subscribed{consent.source ? ` ${CONSENT_SOURCE_LABELS[consent.source] ?? consent.source}` : ""}
              {when}. Replying STOP or UNSUBSCRIBE opts them out.
            </p>
          ) : (
            <p className="text-sm break-words text-muted-foreground">
              No record of consent{consent.source ? ` (set ${CONSENT_SOURCE_LABELS[consent.source] ?? consent.source}` : ""}
              {consent.source ? when : null}
              {consent.source ? ")" : ""}. Utility messages reach them; marketing campaigns only when they include unknown consent. START subscribes them.
            </p>
          )}
        </div>
        <form
          className="flex flex-wrap items-end gap-2"
          onSubmit={(event) => {
            event.preventDefault();
            if (choice !== status) void save(choice);
          }}
        >
          <label className="grid gap-1.5 text-sm font-medium">
            Consent status
            <NativeSelect value={choice} onChange={(event) => setPicked(event.target.value as ConsentStatus)} className="w-44">
              <option value="subscribed">Subscribed</option>
              <option value="unknown">Unknown</option>
              <option value="unsubscribed">Unsubscribed</option>
            </NativeSelect>
          </label>
          <Button type="submit" variant="outline" disabled={busy || choice === status}>
            Save consent
          </Button>
        </form>
        <AlertDialog>
          <AlertDialogTrigger asChild>
            <Button variant={optedOut ? "outline" : "destructive"} disabled={busy} className="w-fit">
              {optedOut ? "Opt in" : "Opt out"}
            </Button>
          </AlertDialogTrigger>
          <AlertDialogContent>
            <AlertDialogHeader>
              <AlertDialogTitle>{optedOut ? "Opt this contact back in?" : "Opt this contact out?"}</AlertDialogTitle>
              <AlertDialogDescription>
                {optedOut
                  ? `${contact.phone} becomes subscribed and will receive campaign messages again. Only do this if they asked to.`
                  : `${contact.phone} will no longer receive campaign messages. Trigger campaigns that respect opt-outs skip them too.`}
              </AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel>Cancel</AlertDialogCancel>
              <AlertDialogAction variant={optedOut ? "default" : "destructive"} onClick={() => save(optedOut ? "subscribed" : "unsubscribed")}>
                {optedOut ? "Opt in" : "Opt out"}
              </AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </CardContent>
    </Card>
  );
}
