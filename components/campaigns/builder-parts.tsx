import { AlertCircle, Archive, ArrowDown } from "lucide-react";
import Link from "next/link";
import type * as React from "react";
import { useEffect } from "react";
import type { UseFormRegisterReturn, UseFormReturn } from "react-hook-form";
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
import { Button } from "@/components/ui/button";
import { SendPolicySummary } from "./send-policy-fields";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { Input } from "@/components/ui/input";
import type { EditorFormValues } from "@/lib/campaigns/editor";
import type { CampaignEditorValues } from "@/lib/campaigns/schemas";
import type { DeploymentDetails } from "@/lib/campaigns/deployment";
import type { FieldError } from "@/lib/http/errors";
import { cn } from "@/lib/utils";
import { CurlExample, SendingLimits, WebhookUrls } from "./deployment-details";

/** The builder's form, shared by the shell and its nodes. */
export type BuilderForm = UseFormReturn<EditorFormValues, unknown, CampaignEditorValues>;

export function Banner({ tone, icon, children }: { tone: "info" | "error" | "success" | "muted"; icon: React.ReactNode; children: React.ReactNode }) {
  const tones = {
    info: "border-sky-200 bg-sky-50 text-sky-900",
    error: "border-destructive/30 bg-destructive/5 text-destructive",
    success: "border-emerald-200 bg-emerald-50 text-emerald-900",
    muted: "border-border bg-muted text-muted-foreground",
  };
  return (
    <div role={tone === "error" ? "alert" : "status"} className={cn("flex items-start gap-2.5 rounded-lg border px-4 py-3 text-sm [&_svg]:mt-0.5 [&_svg]:size-4 [&_svg]:shrink-0", tones[tone])}>
      {icon}
      <div>{children}</div>
    </div>
  );
}

export function CheckList({ checks }: { checks: FieldError[] }) {
  if (checks.length === 0) return null;
  return (
    <ul className="grid gap-1.5 rounded-lg border border-destructive/30 bg-destructive/5 p-3" aria-label="Problems to fix">
      {checks.map((check) => (
        <li key={`${check.path}:${check.code}`} className="flex items-start gap-2 text-sm text-destructive">
          <AlertCircle className="mt-0.5 size-4 shrink-0" aria-hidden />
          {check.message}
        </li>
      ))}
    </ul>
  );
}

/** The campaign's name above either builder, with its error under it. */
export function CampaignNameField({ registration, error, className }: { registration: UseFormRegisterReturn; error?: string; className?: string }) {
  return (
    <div className={cn("max-w-md", className)}>
      <label htmlFor="campaign-name" className="mb-1.5 block text-sm font-medium">
        Campaign name
      </label>
      <Input id="campaign-name" aria-invalid={error ? true : undefined} {...registration} />
      {error && (
        <p role="alert" className="mt-1 text-xs font-medium text-destructive">
          {error}
        </p>
      )}
    </div>
  );
}

export function NodeBadge({ step, icon }: { step: number; icon: React.ReactNode }) {
  return (
    <div className="flex size-9 shrink-0 items-center justify-center rounded-lg bg-primary/10 text-primary [&_svg]:size-5" aria-hidden>
      {icon}
      <span className="sr-only">Step {step}</span>
    </div>
  );
}

export function Connector({ label = "then send" }: { label?: string }) {
  return (
    <div className="flex flex-col items-center py-1" aria-hidden>
      <div className="h-5 w-px bg-border" />
      <span className="rounded-full border bg-background px-2.5 py-0.5 text-xs text-muted-foreground">{label}</span>
      <div className="h-4 w-px bg-border" />
      <ArrowDown className="-mt-1 size-4 text-muted-foreground" />
    </div>
  );
}

export function ArchiveButton({ disabled, onConfirm }: { disabled: boolean; onConfirm: () => void }) {
  return (
    <AlertDialog>
      <AlertDialogTrigger asChild>
        <Button variant="ghost" disabled={disabled}>
          <Archive aria-hidden /> Archive
        </Button>
      </AlertDialogTrigger>
      <AlertDialogContent>
        <AlertDialogHeader>
          <AlertDialogTitle>Archive this campaign?</AlertDialogTitle>
          <AlertDialogDescription>
            Its webhook stops sending messages for good and the campaign can no longer be edited. Messages already sent and their logs are kept.
          </AlertDialogDescription>
        </AlertDialogHeader>
        <AlertDialogFooter>
          <AlertDialogCancel>Cancel</AlertDialogCancel>
          <AlertDialogAction onClick={onConfirm}>Archive campaign</AlertDialogAction>
        </AlertDialogFooter>
      </AlertDialogContent>
    </AlertDialog>
  );
}

/** Shown right after a deploy: the webhook URLs, limits and a curl example. */
export function LiveDialog({
  open,
  onOpenChange,
  deployment,
  command,
  testSend,
  policy = [],
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  deployment: DeploymentDetails | null;
  /** The test command for the campaign's source (the API key curl example when absent). */
  command?: React.ReactNode;
  /** A button that sends a real test message without curl. */
  testSend?: React.ReactNode;
  /** The campaign's send policy in words (quiet hours, frequency cap); empty when none. */
  policy?: string[];
}) {
  return (
    <Dialog open={open} onOpenChange={onOpenChange}>
      <DialogContent className="max-w-2xl">
        <DialogHeader>
          <DialogTitle>Your campaign is live</DialogTitle>
          <DialogDescription>
            Each POST to the webhook sends one WhatsApp message to the phone number in the body. Authenticate with an API key in the{" "}
            <code className="font-mono">x-api-key</code> header, or let the shop set as the campaign&apos;s source sign its calls.
          </DialogDescription>
        </DialogHeader>
        {deployment && (
          <div className="grid gap-5">
            <SendingLimits limits={deployment.limits} />
            <SendPolicySummary lines={policy} />
            <WebhookUrls urls={deployment.webhookUrls} />
            {command ?? <CurlExample curl={deployment.curl} />}
          </div>
        )}
        <DialogFooter>
          {testSend}
          <Button variant="outline" asChild>
            <Link href="/settings/api-keys">Create an API key</Link>
          </Button>
          <Button onClick={() => onOpenChange(false)}>Done</Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}

/** Warns before leaving the page (reload, close, in-app links) with unsaved changes. */
export function useUnsavedChangesWarning(active: boolean) {
  useEffect(() => {
    if (!active) return;
    const message = "You have unsaved changes. Leave without saving?";
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    const onClick = (event: MouseEvent) => {
      const anchor = (event.target as HTMLElement | null)?.closest?.("a[href]") as HTMLAnchorElement | null;
      if (!anchor || anchor.target === "_blank" || event.defaultPrevented) return;
      const url = new URL(anchor.href, window.location.href);
      if (url.origin !== window.location.origin || url.pathname === window.location.pathname) return;
      if (!window.confirm(message)) {
        event.preventDefault();
        event.stopPropagation();
      }
    };
    window.addEventListener("beforeunload", onBeforeUnload);
    document.addEventListener("click", onClick, true);
    return () => {
      window.removeEventListener("beforeunload", onBeforeUnload);
      document.removeEventListener("click", onClick, true);
    };
  }, [active]);
}
