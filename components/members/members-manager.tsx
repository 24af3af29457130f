"use client";

import { Loader2, UserPlus } from "lucide-react";
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
import type { InvitationView, MemberView, TeamView } from "@/lib/members/service";

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
  return (
    <li className="flex flex-wrap items-center justify-between gap-2 rounded-lg border bg-card px-4 py-2.5 text-sm">
      <span className="min-w-0">
        <span className="block truncate font-medium">{invitation.email}</span>
        <span className="block text-xs text-muted-foreground">
          {invitation.role === "admin" ? "Admin" : "Member"} · invited by {invitation.invitedBy ?? "a former member"} · expires{" "}
          {new Date(invitation.expiresAt).toLocaleDateString("en", { month: "short", day: "numeric" })}
        </span>
      </span>
      {manages && (
        <Button variant="ghost" size="sm" aria-label={`Withdraw the invitation to ${invitation.email}`} onClick={onRevoke}>
          Withdraw
        </Button>
      )}
    </li>
  );
}

function InviteDialog({ open, onOpenChange, onInvited }: { open: boolean; onOpenChange: (open: boolean) => void; onInvited: () => Promise<void> }) {
  const [email, setEmail] = useState("");
  const [role, setRole] = useState<"admin" | "member">("member");
  const [error, setError] = useState<string>();
  const [emailError, setEmailError] = useState<string>();
  const [busy, setBusy] = useState(false);

  async function submit(event: React.FormEvent) {
    event.preventDefault();
    setBusy(true);
    setError(undefined);
    setEmailError(undefined);
    const result = await requestJson("/api/members/invitations", { method: "POST", body: { email, role } });
    setBusy(false);
    if (!result.ok) {
      const field = result.problem.errors?.find((e) => e.path === "email");
      if (field) setEmailError(field.message);
      else setError(result.problem.detail);
      return;
    }
    toast.success(`Invitation sent to ${email.trim().toLowerCase()}`);
    setEmail("");
    setRole("member");
    onOpenChange(false);
    await onInvited();
  }

  return (
    <Dialog open={open} onOpenChange={(next) => !busy && onOpenChange(next)}>
      <DialogContent>
        <form onSubmit={submit} noValidate className="grid gap-4">
          <DialogHeader>
            <DialogTitle>Invite member</DialogTitle>
            <DialogDescription>They get a link by email that works once, for 7 days, with this address.</DialogDescription>
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
            <Button type="button" variant="outline" onClick={() => onOpenChange(false)} disabled={busy}>
              Cancel
            </Button>
            <Button type="submit" disabled={busy}>
              {busy && <Loader2 className="animate-spin" aria-hidden />}
              Send invitation
            </Button>
          </DialogFooter>
        </form>
      </DialogContent>
    </Dialog>
  );
}
