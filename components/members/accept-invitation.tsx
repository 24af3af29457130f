"use client";

import { Loader2, UsersRound } from "lucide-react";
import Link from "next/link";
import { signOut } from "next-auth/react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Button } from "@/components/ui/button";
import { FormError } from "@/components/ui/form-field";
import { requestJson } from "@/lib/http/client";
import type { InvitationPreview } from "@/lib/members/service";

const PROBLEMS: Record<NonNullable<InvitationPreview["problem"]>, string> = {
  expired: "This invitation expired after 7 days. Ask for a new one.",
  used: "This invitation was already accepted. Each link works once.",
  revoked: "This invitation was withdrawn.",
};

/** The invitation link: who invites whom to what, and one button (after signing in with the invited address). */
export function AcceptInvitation({ token, invitation, signedInAs }: { token: string; invitation: InvitationPreview | null; signedInAs: string | null }) {
  const router = useRouter();
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const here = `/invite/${encodeURIComponent(token)}`;

  if (!invitation) {
    return <Message title="This invitation link is not valid" text="Check that you opened the whole link from the mail, or ask for a new invitation." />;
  }
  if (invitation.problem) return <Message title="This invitation can no longer be used" text={PROBLEMS[invitation.problem]} />;

  async function accept() {
    setBusy(true);
    setError(undefined);
    const result = await requestJson(`/api/invitations/${encodeURIComponent(token)}/accept`, { method: "POST" });
    setBusy(false);
    if (!result.ok) {
      setError(result.problem.detail);
      return;
    }
    router.push("/campaigns");
    router.refresh();
  }

  const sameAccount = signedInAs?.toLowerCase() === invitation.email;
  return (
    <div>
      <UsersRound className="size-8 text-primary" aria-hidden />
      <h1 className="mt-4 text-2xl font-semibold tracking-tight">Join {invitation.workspaceName}</h1>
      <p className="mt-1.5 text-sm text-muted-foreground">
        {invitation.inviter ?? "A teammate"} invited <strong className="font-medium break-all text-foreground">{invitation.email}</strong> to this
        workspace as {invitation.role === "admin" ? "an admin" : "a member"}.
      </p>
      <div className="mt-6 grid gap-3">
        <FormError>{error}</FormError>
        {sameAccount ? (
          <Button onClick={accept} disabled={busy}>
            {busy && <Loader2 className="animate-spin" aria-hidden />}
            Accept and join
          </Button>
        ) : signedInAs ? (
          <>
            <p className="text-sm text-muted-foreground">
              You are signed in as <strong className="font-medium text-foreground">{signedInAs}</strong>. Sign in with {invitation.email} to accept.
            </p>
            <Button onClick={() => signOut({ callbackUrl: here })}>Sign out and continue</Button>
          </>
        ) : (
          <>
            <Button asChild>
              <Link href={`/sign-up?email=${encodeURIComponent(invitation.email)}&callbackUrl=${encodeURIComponent(here)}`}>Create an account</Link>
            </Button>
            <Button variant="outline" asChild>
              <Link href={`/sign-in?callbackUrl=${encodeURIComponent(here)}`}>I already have an account</Link>
            </Button>
          </>
        )}
      </div>
    </div>
  );
}

function Message({ title, text }: { title: string; text: string }) {
  return (
    <div>
      <h1 className="text-2xl font-semibold tracking-tight">{title}</h1>
      <p className="mt-1.5 text-sm text-muted-foreground">{text}</p>
      <Link href="/sign-in" className="mt-6 inline-block text-sm font-medium text-primary underline underline-offset-4">
        Go to sign in
      </Link>
    </div>
  );
}
