// Team members: invitations by email link (single use, 7 days, only the token's hash stored),
// roles (owner / admin / member), removing a member and leaving a workspace. Every change writes its
// audit row in the same transaction. Who may call what is decided by the routes (owners and admins
// manage; anyone may leave); the rules about the owner are here.
import { randomBytes } from "node:crypto";
import { and, asc, eq, gt, isNull, sql } from "drizzle-orm";
import { z } from "zod";
import type { Executor } from "@/db";
import { invitations, memberships, users, workspaces, type MemberRole } from "@/db/schema";
import { recordAudit, recordMemberChange, type AuditActor } from "@/lib/audit/service";
import { newId } from "@/lib/crypto/random";
import { sha256Hex } from "@/lib/crypto/secrets";
import { ApiError, notFound } from "@/lib/http/errors";
import { mailDelivery, sendMail, type MailTransport } from "@/lib/mail";

export const INVITATION_TTL_MS = 7 * 24 * 3600_000;

export const inviteSchema = z
  .object({
    email: z.email("Enter an email address.").trim().toLowerCase().max(254),
    role: z.enum(["admin", "member"]).default("member"),
  })
  .strict();
export type InviteInput = z.input<typeof inviteSchema>;

export const changeRoleSchema = z.object({ role: z.enum(["admin", "member"]) }).strict();

export interface MemberView {
  userId: string;
  name: string;
  email: string;
  role: MemberRole;
  joinedAt: string;
}

export interface InvitationView {
  id: string;
  email: string;
  role: "admin" | "member";
  invitedBy: string | null;
  expiresAt: string;
  createdAt: string;
}

/**
 * A new (or renewed) invitation with its link. The link carries the only copy of the token (the
 * database keeps its hash), so it is shown once, to the owner or admin who made it; copying it
 * again later renews it (`renewInvitationLink`), which ends the previous link.
 */
export interface CreatedInvitation extends InvitationView {
  link: string;
  /** `sent`: handed to a mail transport that delivers; otherwise `notice` says why not and what to do. */
  mail: { sent: boolean; notice: string | null };
}

export interface TeamView {
  members: MemberView[];
  invitations: InvitationView[];
}

export async function listTeam(db: Executor, workspaceId: string): Promise<TeamView> {
  const [members, open] = await Promise.all([
    db
      .select({ userId: users.id, name: users.name, email: users.email, role: memberships.role, joinedAt: memberships.createdAt })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(eq(memberships.workspaceId, workspaceId))
      .orderBy(asc(memberships.createdAt), asc(users.email)),
    db
      .select({ id: invitations.id, email: invitations.email, role: invitations.role, invitedBy: users.name, expiresAt: invitations.expiresAt, createdAt: invitations.createdAt })
      .from(invitations)
      .leftJoin(users, eq(users.id, invitations.invitedBy))
      .where(and(eq(invitations.workspaceId, workspaceId), isNull(invitations.acceptedAt), isNull(invitations.revokedAt), gt(invitations.expiresAt, sql`now()`)))
      .orderBy(asc(invitations.createdAt)),
  ]);
  return {
    members: members.map((m) => ({ ...m, joinedAt: m.joinedAt.toISOString() })),
    invitations: open.map((i) => ({ ...i, expiresAt: i.expiresAt.toISOString(), createdAt: i.createdAt.toISOString() })),
  };
}

/**
 * Invites an address (a new invitation replaces an open one for the same address) and mails the
 * link. The link is also returned, for the inviter to copy (in development the console mail
 * transport only prints it in the server's terminal).
 */
export async function inviteMember(
  db: Executor,
  workspaceId: string,
  actor: AuditActor & { userId: string },
  input: unknown,
  options: { baseUrl: string; mail?: MailTransport },
): Promise<CreatedInvitation> {
  const { email, role } = inviteSchema.parse(input);
  const token = randomBytes(32).toString("base64url");
  const id = newId("inv");
  const { workspaceName, inviter } = await db.transaction(async (tx) => {
    const [existing] = await tx
      .select({ userId: users.id })
      .from(memberships)
      .innerJoin(users, eq(users.id, memberships.userId))
      .where(and(eq(memberships.workspaceId, workspaceId), sql`lower(${users.email}) = ${email}`));
    if (existing) throw new ApiError("already_member", `${email} is already a member of this workspace.`);
    await tx
      .update(invitations)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(invitations.workspaceId, workspaceId), eq(invitations.email, email), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)));
    await tx.insert(invitations).values({ id, workspaceId, email, role, tokenHash: sha256Hex(token), invitedBy: actor.userId, expiresAt: new Date(Date.now() + INVITATION_TTL_MS) });
    await recordAudit(tx, { workspaceId, actor, action: "member.invited", targetType: "invitation", targetId: id, metadata: { email, role } });
    const [names] = await tx
      .select({ workspaceName: workspaces.name, inviter: users.name })
      .from(workspaces)
      .innerJoin(users, eq(users.id, actor.userId))
      .where(eq(workspaces.id, workspaceId));
    return names!;
  });
  const link = invitationLink(options.baseUrl, token);
  const mail = await mailInvitation({ email, role, inviter, workspaceName, link }, options.mail);
  const team = await listTeam(db, workspaceId);
  return { ...team.invitations.find((i) => i.id === id)!, link, mail };
}

const invitationLink = (baseUrl: string, token: string) => `${baseUrl}/invite/${token}`;

async function mailInvitation(
  invitation: { email: string; role: "admin" | "member"; inviter: string; workspaceName: string; link: string },
  transport: MailTransport | undefined,
): Promise<CreatedInvitation["mail"]> {
  const { email, role, inviter, workspaceName, link } = invitation;
  const delivery = transport ? { delivers: true, notice: null } : mailDelivery();
  try {
    await sendMail(
      {
        to: email,
        subject: `${inviter} invited you to ${workspaceName} on Sendstream`,
        text: `${inviter} invited you to join the workspace "${workspaceName}" on Sendstream as ${role === "admin" ? "an admin" : "a member"}.\n\nAccept the invitation (valid for 7 days, once): ${link}\n\nIf you did not expect this, ignore this mail.`,
      },
      transport,
    );
    return { sent: delivery.delivers, notice: delivery.notice };
  } catch (error) {
    console.error(`Sendstream: the invitation mail to ${email} could not be sent: ${String(error)}`);
    return { sent: false, notice: "The invitation email could not be sent. Copy the link and send it yourself." };
  }
}

/**
 * A fresh link for an open invitation, valid 7 days from now; the previous link stops working (only
 * the token's hash is stored, so an earlier link cannot be shown again). Mails nothing: the owner or
 * admin who asked copies it.
 */
export async function renewInvitationLink(
  db: Executor,
  workspaceId: string,
  actor: AuditActor,
  invitationId: string,
  options: { baseUrl: string },
): Promise<{ link: string; expiresAt: string }> {
  const token = randomBytes(32).toString("base64url");
  const expiresAt = new Date(Date.now() + INVITATION_TTL_MS);
  await db.transaction(async (tx) => {
    const [renewed] = await tx
      .update(invitations)
      .set({ tokenHash: sha256Hex(token), expiresAt })
      .where(
        and(
          eq(invitations.id, invitationId),
          eq(invitations.workspaceId, workspaceId),
          isNull(invitations.acceptedAt),
          isNull(invitations.revokedAt),
          gt(invitations.expiresAt, sql`now()`),
        ),
      )
      .returning({ email: invitations.email });
    if (!renewed) throw notFound("No open invitation with this id exists in your workspace.");
    await recordAudit(tx, { workspaceId, actor, action: "member.invitation_link_renewed", targetType: "invitation", targetId: invitationId, metadata: { email: renewed.email } });
  });
  return { link: invitationLink(options.baseUrl, token), expiresAt: expiresAt.toISOString() };
}

export async function revokeInvitation(db: Executor, workspaceId: string, actor: AuditActor, invitationId: string): Promise<void> {
  await db.transaction(async (tx) => {
    const [revoked] = await tx
      .update(invitations)
      .set({ revokedAt: sql`now()` })
      .where(and(eq(invitations.id, invitationId), eq(invitations.workspaceId, workspaceId), isNull(invitations.acceptedAt), isNull(invitations.revokedAt)))
      .returning({ email: invitations.email });
    if (!revoked) throw notFound("No open invitation with this id exists in your workspace.");
    await recordAudit(tx, { workspaceId, actor, action: "member.invitation_revoked", targetType: "invitation", targetId: invitationId, metadata: { email: revoked.email } });
  });
}

export interface InvitationPreview {
  workspaceName: string;
  email: string;
  role: "admin" | "member";
  inviter: string | null;
  /** Why it can no longer be accepted, or null while it can. */
  problem: "expired" | "used" | "revoked" | null;
}

/** What the invitation page shows; null for a token that was never issued. */
export async function previewInvitation(db: Executor, token: string): Promise<InvitationPreview | null> {
  const [row] = await db
    .select({
      workspaceName: workspaces.name,
      email: invitations.email,
      role: invitations.role,
      inviter: users.name,
      expiresAt: invitations.expiresAt,
      acceptedAt: invitations.acceptedAt,
      revokedAt: invitations.revokedAt,
    })
    .from(invitations)
    .innerJoin(workspaces, eq(workspaces.id, invitations.workspaceId))
    .leftJoin(users, eq(users.id, invitations.invitedBy))
    .where(eq(invitations.tokenHash, sha256Hex(token)));
  if (!row) return null;
  const problem = row.acceptedAt ? "used" : row.revokedAt ? "revoked" : row.expiresAt.getTime() <= Date.now() ? "expired" : null;
  return { workspaceName: row.workspaceName, email: row.email, role: row.role, inviter: row.inviter, problem };
}

/** Joins the signed-in user to the invitation's workspace; the invitation must be open and for their email. Returns the workspace id. */
export async function acceptInvitation(db: Executor, token: string, user: { id: string; email: string }, actor: AuditActor): Promise<string> {
  return db.transaction(async (tx) => {
    const [invitation] = await tx.select().from(invitations).where(eq(invitations.tokenHash, sha256Hex(token))).for("update");
    if (!invitation) throw notFound("This invitation link is not valid. Ask for a new one.");
    if (invitation.acceptedAt) throw new ApiError("invitation_used", "This invitation was already accepted. Ask for a new one if you need it.");
    if (invitation.revokedAt) throw new ApiError("invitation_used", "This invitation was withdrawn. Ask for a new one if you need it.");
    if (invitation.expiresAt.getTime() <= Date.now()) throw new ApiError("invitation_expired", "This invitation expired after 7 days. Ask for a new one.");
    if (invitation.email !== user.email.trim().toLowerCase()) {
      throw new ApiError("invitation_other_account", `This invitation is for ${invitation.email}. Sign in with that address to accept it.`);
    }
    await tx.insert(memberships).values({ workspaceId: invitation.workspaceId, userId: user.id, role: invitation.role }).onConflictDoNothing();
    await tx.update(invitations).set({ acceptedAt: sql`now()`, acceptedBy: user.id }).where(eq(invitations.id, invitation.id));
    await recordMemberChange(tx, { workspaceId: invitation.workspaceId, actor, change: "added", memberUserId: user.id, email: invitation.email, role: invitation.role });
    return invitation.workspaceId;
  });
}

async function memberRow(db: Executor, workspaceId: string, userId: string) {
  const [row] = await db
    .select({ role: memberships.role, email: users.email })
    .from(memberships)
    .innerJoin(users, eq(users.id, memberships.userId))
    .where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)))
    .for("update", { of: memberships });
  if (!row) throw notFound("No member with this id in your workspace.");
  return row;
}

/** Makes a member an admin or an admin a member; the owner's role does not change. */
export async function changeMemberRole(db: Executor, workspaceId: string, actor: AuditActor, userId: string, input: unknown): Promise<MemberView> {
  const { role } = changeRoleSchema.parse(input);
  await db.transaction(async (tx) => {
    const member = await memberRow(tx, workspaceId, userId);
    if (member.role === "owner") throw new ApiError("owner_protected", "The workspace's owner keeps the owner role.");
    if (member.role === role) return;
    await tx.update(memberships).set({ role }).where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)));
    await recordMemberChange(tx, { workspaceId, actor, change: "role_changed", memberUserId: userId, email: member.email, role, previousRole: member.role });
  });
  return (await listTeam(db, workspaceId)).members.find((m) => m.userId === userId)!;
}

/** Removes a member (not the owner, not oneself: that is leaving). Their sessions in this workspace end at once. */
export async function removeMember(db: Executor, workspaceId: string, actor: AuditActor & { userId: string }, userId: string): Promise<void> {
  if (userId === actor.userId) throw new ApiError("owner_protected", "To remove yourself, leave the workspace instead.");
  await db.transaction(async (tx) => {
    const member = await memberRow(tx, workspaceId, userId);
    if (member.role === "owner") throw new ApiError("owner_protected", "The workspace's owner cannot be removed.");
    await tx.delete(memberships).where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, userId)));
    await recordMemberChange(tx, { workspaceId, actor, change: "removed", memberUserId: userId, email: member.email });
  });
}

/** Leaves a workspace (not as its owner, and not the last one a user belongs to). Returns another workspace of theirs. */
export async function leaveWorkspace(db: Executor, workspaceId: string, actor: AuditActor & { userId: string }): Promise<string> {
  return db.transaction(async (tx) => {
    const member = await memberRow(tx, workspaceId, actor.userId);
    if (member.role === "owner") throw new ApiError("owner_protected", "The owner cannot leave the workspace.");
    const [other] = await tx
      .select({ workspaceId: memberships.workspaceId })
      .from(memberships)
      .where(and(eq(memberships.userId, actor.userId), sql`${memberships.workspaceId} <> ${workspaceId}`))
      .orderBy(asc(memberships.createdAt))
      .limit(1);
    if (!other) throw new ApiError("owner_protected", "This is your only workspace; you cannot leave it.");
    await tx.delete(memberships).where(and(eq(memberships.workspaceId, workspaceId), eq(memberships.userId, actor.userId)));
    await recordMemberChange(tx, { workspaceId, actor, change: "removed", memberUserId: actor.userId, email: member.email });
    return other.workspaceId;
  });
}

export interface UserWorkspace {
  id: string;
  name: string;
  role: MemberRole;
}

/** Every workspace the user belongs to, for the switcher in the account menu. */
export async function listUserWorkspaces(db: Executor, userId: string): Promise<UserWorkspace[]> {
  return db
    .select({ id: workspaces.id, name: workspaces.name, role: memberships.role })
    .from(memberships)
    .innerJoin(workspaces, eq(workspaces.id, memberships.workspaceId))
    .where(eq(memberships.userId, userId))
    .orderBy(asc(workspaces.name), asc(workspaces.id));
}
