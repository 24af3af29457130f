"use client";

import { CopyButton } from "@/components/campaigns/copy-button";
import { Input } from "@/components/ui/input";

/** An invitation link to copy: the box selects it whole on focus, for when no clipboard is available. */
export function InviteLink({ link, email, note }: { link: string; email: string; note?: string }) {
  return (
    <div className="grid gap-1.5">
      <div className="flex min-w-0 items-center gap-2">
        <Input
          readOnly
          value={link}
          aria-label={`Invite link for ${email}`}
          className="min-w-0 flex-1 font-mono text-xs"
          onFocus={(event) => event.currentTarget.select()}
        />
        <CopyButton value={link} label={`Copy the invite link for ${email}`} className="shrink-0" />
      </div>
      {note && <p className="text-xs text-muted-foreground">{note}</p>}
    </div>
  );
}
