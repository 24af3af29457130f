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
import { formatDateTime, OPT_OUT_METHOD_LABELS } from "./format";
import type { Contact } from "./types";

/** Whether the contact may receive bulk messages, how that came to be, and the buttons to change it. */
export function ConsentPanel({ contact, onChanged }: { contact: Contact; onChanged: () => void }) {
  const [busy, setBusy] = React.useState(false);
  const consent = contact.consent;
  const optedOut = Boolean(consent?.optedOut);

  async function change() {
    setBusy(true);
    const result = await requestJson(`/api/v1/contacts/${contact.id}/${optedOut ? "opt-in" : "opt-out"}`, { method: "POST", body: {} });
    setBusy(false);
    if (!result.ok) {
      toast.error(result.problem.detail);
      return;
    }
    toast.success(optedOut ? "Contact opted back in." : "Contact opted out.");
    onChanged();
  }

  return (
    <Card>
      <CardHeader>
        <CardTitle>Consent</CardTitle>
        <CardDescription>Opted-out contacts never receive bulk messages.</CardDescription>
      </CardHeader>
      <CardContent className="grid gap-4">
        <div className="grid gap-1.5" data-testid="consent-status">
          {optedOut ? (
            <>
              <Badge variant="warning">Opted out</Badge>
              <p className="text-sm break-words text-muted-foreground">
                {consent.method ? `Opted out ${OPT_OUT_METHOD_LABELS[consent.method] ?? consent.method}` : "Opted out"}
                {consent.detail ? (consent.method === "keyword" ? <> “{consent.detail}”</> : <> ({consent.detail})</>) : null}
                {consent.optedOutAt ? <> on <time dateTime={consent.optedOutAt}>{formatDateTime(consent.optedOutAt)}</time></> : null}.
              </p>
            </>
          ) : (
            <>
              <Badge variant="success">Subscribed</Badge>
              <p className="text-sm text-muted-foreground">Replying STOP or UNSUBSCRIBE opts them out; START opts them back in.</p>
            </>
          )}
        </div>
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
                  ? `${contact.phone} will receive bulk messages again. Only do this if they asked to.`
                  : `${contact.phone} will no longer receive bulk messages. Trigger campaigns that respect opt-outs skip them too.`}
              </AlertDialogDescription>
            </AlertDialogHeader>
            <AlertDialogFooter>
              <AlertDialogCancel>Cancel</AlertDialogCancel>
              <AlertDialogAction variant={optedOut ? "default" : "destructive"} onClick={change}>
                {optedOut ? "Opt in" : "Opt out"}
              </AlertDialogAction>
            </AlertDialogFooter>
          </AlertDialogContent>
        </AlertDialog>
      </CardContent>
    </Card>
  );
}
