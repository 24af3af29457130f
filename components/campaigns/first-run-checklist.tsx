"use client";

import { CheckCircle2, Circle, X } from "lucide-react";
import Link from "next/link";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import type { FirstRunChecklist as Checklist, FirstRunStepId } from "@/lib/campaigns/first-run";
import { cn } from "@/lib/utils";

const STEPS: Record<FirstRunStepId, { title: string; description: (sandboxOnly: boolean) => string; href: string; action: string }> = {
  sender: {
    title: "Connect WhatsApp, or stay in the sandbox",
    description: (sandboxOnly) =>
      sandboxOnly
        ? "The built-in sandbox sends and receives like WhatsApp, replies included. Connect your WhatsApp Business number when you are ready to reach real customers."
        : "Your WhatsApp Business number is connected.",
    href: "/settings/whatsapp",
    action: "WhatsApp settings",
  },
  contacts: {
    title: "Import your contacts",
    description: () => "Upload a CSV of customers with their consent; map its columns to attributes you can use in messages and segments.",
    href: "/contacts/import",
    action: "Import contacts",
  },
  template: {
    title: "Write a template",
    description: () => "Every business-initiated WhatsApp message uses an approved template. Write your own, or sync the ones of your WhatsApp account.",
    href: "/templates/new",
    action: "Write a template",
  },
  campaign: {
    title: "Send a campaign",
    description: () => "A bulk campaign sends once to a list or segment; a trigger campaign sends each time your shop or CRM calls its webhook.",
    href: "/campaigns?new=1",
    action: "Create a campaign",
  },
};

/** `cookieName`: the cookie that hides the checklist for this workspace in this browser. */
export function FirstRunChecklist({ checklist, cookieName }: { checklist: Checklist; cookieName: string }) {
  const router = useRouter();
  const [hidden, setHidden] = useState(false);
  if (hidden) return null;
  const done = checklist.steps.filter((s) => s.done).length;
  const dismiss = () => {
    document.cookie = `${cookieName}=1; path=/; max-age=${60 * 60 * 24 * 365}; samesite=lax`;
    setHidden(true);
    router.refresh();
  };
  return (
    <section aria-labelledby="first-run-title" className="mb-6 rounded-xl border bg-card p-4 sm:p-5">
      <div className="flex items-start justify-between gap-3">
        <div>
          <h2 id="first-run-title" className="text-base font-semibold">
            Get started
          </h2>
          <p className="mt-0.5 text-sm text-muted-foreground">
            {done} of {checklist.steps.length} done
          </p>
        </div>
        <Button variant="ghost" size="icon" onClick={dismiss} aria-label="Hide the getting started checklist">
          <X aria-hidden />
        </Button>
      </div>
      <ol className="mt-3 grid gap-2 md:grid-cols-2">
        {checklist.steps.map((step) => {
          const info = STEPS[step.id];
          return (
            <li key={step.id} className={cn("flex gap-3 rounded-lg border p-3", step.done && "bg-muted/40")}>
              {step.done ? (
                <CheckCircle2 className="mt-0.5 size-5 shrink-0 text-emerald-600" aria-hidden />
              ) : (
                <Circle className="mt-0.5 size-5 shrink-0 text-muted-foreground" aria-hidden />
              )}
              <div className="min-w-0">
                <p className={cn("text-sm font-medium", step.done && "text-muted-foreground")}>
                  {info.title}
                  <span className="sr-only">{step.done ? " (done)" : " (to do)"}</span>
                </p>
                <p className="mt-0.5 text-xs text-muted-foreground">{info.description(checklist.sandboxOnly)}</p>
                <Link href={info.href} className="mt-1.5 inline-block text-xs font-medium text-primary underline-offset-4 hover:underline">
                  {info.action}
                </Link>
              </div>
            </li>
          );
        })}
      </ol>
    </section>
  );
}
