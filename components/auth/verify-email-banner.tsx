"use client";

import { MailWarning } from "lucide-react";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { requestJson } from "@/lib/http/client";

/** Shown on every page to a user whose email address is not confirmed yet, with a way to get a new link. */
export function VerifyEmailBanner({ email }: { email: string }) {
  const [state, setState] = useState<{ sending: boolean; message?: string }>({ sending: false });

  async function resend() {
    setState({ sending: true });
    const result = await requestJson<{ sent: boolean }>("/api/auth/verify-email/resend", { method: "POST" });
    if (!result.ok) setState({ sending: false, message: result.problem.detail });
    else setState({ sending: false, message: result.data.sent ? `We sent a new link to ${email}.` : "Your email address is already confirmed." });
  }

  return (
    <section aria-label="Confirm your email" className="mb-6 flex flex-wrap items-center gap-3 rounded-lg border border-amber-200 bg-amber-50 px-4 py-3 text-sm text-amber-950">
      <MailWarning className="size-4 shrink-0" aria-hidden />
      {/* At least 16rem of text before the button wraps under it: beside it on a phone, the address broke every few letters. */}
      <p className="grow basis-64">
        Your email address <strong className="font-medium [overflow-wrap:anywhere]">{email}</strong> is not confirmed yet: open the link from our mail, or ask for a new one.
        {state.message && (
          <span role="status" className="ml-1">
            {state.message}
          </span>
        )}
      </p>
      <Button type="button" size="sm" variant="outline" onClick={resend} disabled={state.sending}>
        Send a new link
      </Button>
    </section>
  );
}
