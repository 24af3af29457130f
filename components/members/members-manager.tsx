"use client";

import { Link2, Loader2, UserPlus } from "lucide-react";
import { useRouter } from "next/navigation";
import { useState } from "react";
import { Badge } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { Dialog, DialogContent, DialogDescription, DialogFooter, DialogHeader, DialogTitle } from "@/components/ui/dialog";
import { fieldAria, FormError, FormField } from "@/components/ui/form-field";
import { Input } from "@/components/ui/input";
import { PageHeader } from "@/components/ui/page-header";
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from "@/components/ui/table";
import { toast } from "@/components/ui/toaster";
import { NativeSelect } from "@/components/campaigns/native-select";
import type { MemberRole } from "@/lib/members/roles";
import { requestJson } from "@/lib/http/client";
import type { CreatedInvitation, InvitationView, MemberView, TeamView } from "@/lib/members/service";
import { InviteLink } from "./invite-link";

const ROLE_HINT: Record<MemberRole, string> = {
  owner: "Everything, including renaming the workspace",
  admin: "Everything but renaming the workspace and the owner",
  member: "Campaigns, contacts and logs",
};

export function MembersManager({ initialTeam, currentUserId, currentRole }: { initialTeam: TeamView; currentUserId: string; currentRole: MemberRole }) {
  const router = useRouter();
  const [team, setTeam] = useState(initialTeam);
  const [inviting, setInviting] = useState(false);
  const manages = currentRole !== "member";

  async function reload() {
    const result = await requestJson<TeamView>("/api/members");
    if (result.ok) setTeam(result.data);
  }

  async function act(label: string, url: string, method: string, body?: unknown) {
    const result = await requestJson(url, { method, body });
    if (!result.ok) {
      toast.error(result.problem.detail);
      return false;
    }
    toast.success(label);
    await reload();
    return true;
  }

  async function leave() {
    if (!window.confirm("Leave this workspace? You lose access to its campaigns and contacts until someone invites you again.")) return;
    const result = await requestJson("/api/members/leave", { method: "POST" });
    if (!result.ok) {
      toast.error(result.problem.detail);
      return;
    }
    router.push("/campaigns");
    router.refresh();
  }

  return (
    <>
      <PageHeader
        title="Members"
        description="Who works in this workspace, and what each may do."
        actions={
          <>
            {currentRole !== "owner" && (
              <Button variant="outline" onClick={leave}>
                Leave workspace
              </Button>
            )}
            {manages && (
              <Button onClick={() => setInviting(true)}>
                <UserPlus aria-hidden />
                Invite member
              </Button>
            )}
          </>
        }
      />
      <div className="overflow-x-auto rounded-xl border bg-card">
        <Table aria-label="Members">
          <TableHeader>
            <TableRow className="hover:bg-transparent">
              <TableHead scope="col">Name</TableHead>
              <TableHead scope="col">Role</TableHead>
              <TableHead scope="col">
                <span className="sr-only">Actions</span>
              </TableHead>
            </TableRow>
          </TableHeader>
          <TableBody>
            {team.members.map((member) => (
              <MemberRow
                key={member.userId}
                member={member}
                editable={manages && member.role !== "owner" && member.userId !== currentUserId}
                onRole={(role) => act(`${member.name} is now ${role === "admin" ? "an admin" : "a member"}`, `/api/members/${member.userId}`, "PATCH", { role })}
                onRemove={() =>
                  window.confirm(`Remove ${member.name} from this workspace?`) && act(`${member.name} removed`, `/api/members/${member.userId}`, "DELETE")
                }
              />
            ))}
          </TableBody>
        </Table>
      </div>
      {team.invitations.length > 0 && (
        <section aria-labelledby="pending-title" className="mt-6">
          <h2 id="pending-title" className="mb-3 text-base font-semibold">
            Pending invitations
          </h2>
          <ul className="grid gap-2" aria-label="Pending invitations">
            {team.invitations.map((invitation) => (
              <InvitationRow
                key={invitation.id}
                invitation={invitation}
                manages={manages}
                onRevoke={() => act(`Invitation to ${invitation.email} withdrawn`, `/api/members/invitations/${invitation.id}`, "DELETE")}
              />
            ))}
          </ul>
        </section>
      )}
      <InviteDialog open={inviting} onOpenChange={setInviting} onInvited={reload} />
    </>
  );
}

function MemberRow({ member, editable, onRole, onRemove }: { member: MemberView; editable: boolean; onRole: (role: "admin" | "member") => void; onRemove: () => void }) {
  return (
    <TableRow>
      <TableCell>
        <span className="block font-medium">{member.name}</span>
        <span className="block text-xs text-muted-foreground">{member.email}</span>
      </TableCell>
      <TableCell>
        {editable ? (
          <NativeSelect aria-label={`Role of ${member.name}`} className="w-32" value={member.role} onChange={(event) => onRole(event.target.value as "admin" | "member")}>
            <option value="admin">Admin</option>
            <option value="member">Member</option>
          </NativeSelect>
        ) : (
          <Badge variant={member.role === "owner" ? "default" : "secondary"} title={ROLE_HINT[member.role]}>
            {member.role[0]!.toUpperCase() + member.role.slice(1)}
          </Badge>
        )}
      </TableCell>
      <TableCell className="text-right">
        {editable && (
          <Button variant="ghost" size="sm" className="text-destructive hover:bg-destructive/10 hover:text-destructive" aria-label={`Remove ${member.name}`} onClick={onRemove}>
            Remove
          </Button>
        )}
      </TableCell>
    </TableRow>
  );
}

function InvitationRow({ invitation, manages, onRevoke }: { invitation: InvitationView; manages: boolean; onRevoke: () => void }) {
  const [link, setLink] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  async function renew() {
    setBusy(true);
    const result = await requestJson<{ link: string }>(`/api/members/invitations/${invitation.id}/link`, { method: "POST" });
    setBusy(false);
    if (!result.ok) {
      toast.error(result.problem.detail);
      return;
    }
    setLink(result.data.link);
    try {
      await navigator.clipboard.writeText(result.data.link);
      toast.success(`A new invite link for ${invitation.email} is copied`);
    } catch {
      // No clipboard (a page served over plain http): the link is shown to copy by hand.
    }
  }

  return (
    <li className="grid gap-2 rounded-lg border bg-card px-4 py-2.5 text-sm">
      <div className="flex flex-wrap items-center justify-between gap-2">
        <span className="min-w-0">
          <span className="block truncate font-medium">{invitation.email}</span>
          <span className="block text-xs text-muted-foreground">
            {invitation.role === "admin" ? "Admin" : "Member"} · invited by {invitation.invitedBy ?? "a former member"} · expires{" "}
            {new Date(invitation.expiresAt).toLocaleDateString("en", { month: "short", day: "numeric" })}
          </span>
        </span>
        {manages && (
          <span className="flex flex-wrap gap-1">
            <Button
              variant="outline"
              size="sm"
              aria-label={`Copy invite link for ${invitation.email}`}
              title="Makes a new link (valid 7 days); the earlier link stops working"
              disabled={busy}
              onClick={renew}
            >
              {busy ? <Loader2 className="animate-spin" aria-hidden /> : <Link2 aria-hidden />}
              Copy invite link
            </Button>
            <Button variant="ghost" size="sm" aria-label={`Withdraw the invitation to ${invitation.email}`} onClick={onRevoke}>
              Withdraw
            </Button>
          </span>
        )}
      </div>
      {link && <InviteLink link={link} email={invitation.email} note="A new link, valid for 7 days: the earlier link no longer works." />}
    </li>
  );
}

function InviteDialog({ open, onOpenChange, onInvited }: { open: boolean; onOpenChange: (open: boolean) => void; onInvited: () => Promise<void> }) {
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<"admin" | "member">("member");
  const [error, setError] = useState<string>();
  const [emailError, setEmailError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [created, setCreated] = useState<CreatedInvitation | null>(null);

  function close(next: boolean) {
    if (busy) return;
    onOpenChange(next);
    if (!next) setCreated(null);
  }

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setEmailError(undefined);
    const result = await requestJson<CreatedInvitation>("/api/members/invitations", { method: "POST", body: { email, role } });
    setBusy(false);
    if (!result.ok) {
      const field = result.problem.errors?.find((e) => e.path === "email");
      if (field) setEmailError(field.message);
      else setError(result.problem.detail);
      return;
    }
    setCreated(result.data);
    setEmail("");
    setRole("member");
    await onInvited();
  }

  return (
    <Dialog open={open} onOpenChange={close}>
      <DialogContent>
        {created ? (
          <div className="grid gap-4">
            <DialogHeader>
              <DialogTitle>{created.mail.sent ? "Invitation sent" : "Invitation created"}</DialogTitle>
              <DialogDescription>
                {created.mail.sent
                  ? `${created.email} gets the link by email. You can also send it yourself.`
                  : `The link for ${created.email} works once, for 7 days, with this address.`}
              </DialogDescription>
            </DialogHeader>
            {created.mail.notice && (
              <p role="status" className="rounded-md border border-amber-300 bg-amber-50 px-3 py-2 text-sm text-amber-950 dark:border-amber-800 dark:bg-amber-950/40 dark:text-amber-100">
                {created.mail.notice}
              </p>
            )}
            <InviteLink link={created.link} email={created.email} />
            <DialogFooter>
              <Button type="button" onClick={() => close(false)}>
                Done
              </Button>
            </DialogFooter>
          </div>
        ) : (
        <form onSubmit={submit} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Invite member</DialogTitle>
            <DialogDescription>They get a link that works once, for 7 days, with this address. You can copy it once the invitation is made.</DialogDescription>
          </DialogHeader>
          <FormError>{error}</FormError>
          <FormField id="invite-email" label="Email" error={emailError}>
            <Input type="email" autoComplete="off" autoFocus value={email} onChange={(event) => setEmail(event.target.value)} {...fieldAria("invite-email", emailError)} />
          </FormField>
          <FormField id="invite-role" label="Role" hint={ROLE_HINT[role]}>
            <NativeSelect id="invite-role" value={role} onChange={(event) => setRole(event.target.value as "admin" | "member")} aria-describedby="invite-role-hint">
              <option value="member">Member</option>
              <option value="admin">Admin</option>
            </NativeSelect>
          </FormField>
          <DialogFooter>
            <Button type="button" variant="outline" onClick={() => close(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy && <Loader2 className="animate-spin" aria-hidden />}
              Invite
            </Button>
          </DialogFooter>
        </form>
        )}
      </DialogContent>
    </Dialog>
  );
}
