// The audit trail: who changed credentials, keys, campaigns' status and membership, from where.
// Rows are written in the transaction of the change they describe, and never hold a secret.
import { and, desc, eq, sql } from "drizzle-orm";
import type { Executor } from "@/db";
import { alias, type AnyPgColumn } from "drizzle-orm/pg-core";
import { apiKeys, auditEvents, campaigns, contacts, invitations, senders, users, webhookEndpoints, workspaces } from "@/db/schema";
import { cursorTimestamp, decodeCursor, encodeCursor, keysetCondition } from "@/db/cursor";
import { newId } from "@/lib/crypto/random";
import type { AuditAction } from "./actions";
import { clientIp, trustedProxyHops } from "@/lib/http/client-ip";
import { badRequest } from "@/lib/http/errors";
import type { Actor } from "@/lib/workspaces";

/** Who did it, for the audit trail: a user, or an API key acting for the workspace. */
export interface AuditActor {
  userId: string | null;
  apiKeyId?: string | null;
  ip: string | null;
  userAgent: string | null;
}

/** Changes made by the service itself (scripts, seeding), not by a user or key of the workspace. */
export const SYSTEM_ACTOR: AuditActor = { userId: null, apiKeyId: null, ip: null, userAgent: null };

/** The request's actor with the client address the trusted proxy saw (see clientIp) and the user agent. */
export function auditActorFromRequest(request: Request, actor: Actor): AuditActor {
  const userAgent = request.headers.get("user-agent");
  return {
    userId: actor.type === "user" ? actor.id : null,
    apiKeyId: actor.type === "api_key" ? actor.id : null,
    ip: clientIp(request),
    userAgent: userAgent ? userAgent.slice(0, 512) : null,
  };
}

export interface AuditEntry {
  workspaceId: string;
  actor: AuditActor;
  /** `<target type>.<past tense>`: `sender.settings_changed`, `campaign.paused`, `member.added` (lib/audit/actions.ts lists them all). */
  action: AuditAction;
  targetType: string;
  targetId: string;
  /** What changed, never a secret. */
  metadata?: Record<string, unknown>;
}

export function auditRow(entry: AuditEntry): typeof auditEvents.$inferInsert {
  return {
    id: newId("evt"),
    workspaceId: entry.workspaceId,
    actorUserId: entry.actor.userId,
    actorApiKeyId: entry.actor.apiKeyId ?? null,
    action: entry.action,
    targetType: entry.targetType,
    targetId: entry.targetId,
    metadata: entry.metadata ?? {},
    ip: entry.actor.ip?.slice(0, 64) ?? null,
    userAgent: entry.actor.userAgent?.slice(0, 512) ?? null,
  };
}

/** Writes one audit row; pass the transaction of the change so that both happen or neither. */
export async function recordAudit(db: Executor, entry: AuditEntry): Promise<void> {
  await db.insert(auditEvents).values(auditRow(entry));
}

export type MemberChange = "added" | "removed" | "role_changed";

/** Membership changes (inviting, removing, changing a role), for the member management to come. */
export function recordMemberChange(
  db: Executor,
  input: { workspaceId: string; actor: AuditActor; change: MemberChange; memberUserId: string; email?: string; role?: string; previousRole?: string },
): Promise<void> {
  const metadata: Record<string, unknown> = {};
  if (input.email !== undefined) metadata.email = input.email;
  if (input.role !== undefined) metadata.role = input.role;
  if (input.previousRole !== undefined) metadata.previousRole = input.previousRole;
  return recordAudit(db, {
    workspaceId: input.workspaceId,
    actor: input.actor,
    action: `member.${input.change}`,
    targetType: "user",
    targetId: input.memberUserId,
    metadata,
  });
}

export interface AuditEventView {
  id: string;
  createdAt: string;
  /** Null for changes nobody in the workspace made (an inbound STOP reply). */
  actor: { type: "user"; id: string; name: string; email: string } | { type: "api_key"; id: string; name: string; displayKey: string } | null;
  action: string;
  targetType: string;
  targetId: string;
  /** What the target is called now (a campaign's or key's name, a contact's name or number), else as the row recorded it; null when unknown. */
  targetName: string | null;
  /** A second line for the target: a named contact's number, a user's email. */
  targetDetail: string | null;
  metadata: Record<string, unknown>;
  ip: string | null;
  /** Why `ip` is null. */
  ipNote: string | null;
}

/**
 * Why a row has no client address: changes the app made by itself come from no request; a
 * request's address is recorded only from the X-Forwarded-For entry of a proxy the server is told
 * to trust (TRUSTED_PROXY_HOPS, lib/http/client-ip.ts).
 */
export function missingAddressNote(actor: AuditEventView["actor"], hops: number = trustedProxyHops()): string {
  if (!actor) return "None: made by the app itself (a reply, a schedule), not a request";
  if (hops <= 0) return "Not recorded: no proxy is trusted for client addresses (TRUSTED_PROXY_HOPS is 0)";
  return "Not recorded: the request did not come through the trusted proxy with a client address";
}

function text(value: unknown): string | null {
  return typeof value === "string" && value !== "" ? value : null;
}

export interface AuditPage {
  data: AuditEventView[];
  nextCursor: string | null;
}

export const AUDIT_PAGE_SIZE = 50;

/** The workspace's audit rows, newest first, in keyset pages. */
export async function listAuditEvents(
  db: Executor,
  workspaceId: string,
  options: { cursor?: string | null; limit?: number } = {},
): Promise<AuditPage> {
  const limit = Math.min(Math.max(options.limit ?? AUDIT_PAGE_SIZE, 1), 200);
  const cursor = options.cursor ? decodeCursor(options.cursor, { id: /^evt_/ }) : null;
  if (options.cursor && (!cursor || cursor.direction !== "older")) throw badRequest("The cursor is not valid; start from the first page.");
  // The target of each row, named in the same query (one join per kind of target, all by primary key).
  const targetKey = alias(apiKeys, "target_key");
  const targetUser = alias(users, "target_user");
  const target = (type: string, id: AnyPgColumn) => and(eq(auditEvents.targetType, type), eq(id, auditEvents.targetId));
  const rows = await db
    .select({
      id: auditEvents.id,
      createdAt: auditEvents.createdAt,
      position: cursorTimestamp(auditEvents.createdAt),
      action: auditEvents.action,
      targetType: auditEvents.targetType,
      targetId: auditEvents.targetId,
      metadata: auditEvents.metadata,
      ip: auditEvents.ip,
      userId: users.id,
      userName: users.name,
      userEmail: users.email,
      keyId: apiKeys.id,
      keyName: apiKeys.name,
      keyDisplay: apiKeys.displayKey,
      campaignName: campaigns.name,
      contactName: contacts.name,
      contactPhone: contacts.phoneNumber,
      targetKeyName: targetKey.name,
      senderName: senders.name,
      endpointUrl: webhookEndpoints.url,
      targetUserName: targetUser.name,
      targetUserEmail: targetUser.email,
      invitationEmail: invitations.email,
      workspaceName: workspaces.name,
    })
    .from(auditEvents)
    .leftJoin(users, eq(users.id, auditEvents.actorUserId))
    .leftJoin(apiKeys, and(eq(apiKeys.id, auditEvents.actorApiKeyId), eq(apiKeys.workspaceId, workspaceId)))
    .leftJoin(campaigns, and(target("campaign", campaigns.id), eq(campaigns.workspaceId, workspaceId)))
    .leftJoin(contacts, and(target("contact", contacts.id), eq(contacts.workspaceId, workspaceId)))
    .leftJoin(targetKey, and(target("api_key", targetKey.id), eq(targetKey.workspaceId, workspaceId)))
    .leftJoin(senders, and(target("sender", senders.id), eq(senders.workspaceId, workspaceId)))
    .leftJoin(webhookEndpoints, and(target("webhook_endpoint", webhookEndpoints.id), eq(webhookEndpoints.workspaceId, workspaceId)))
    .leftJoin(targetUser, target("user", targetUser.id))
    .leftJoin(invitations, and(target("invitation", invitations.id), eq(invitations.workspaceId, workspaceId)))
    .leftJoin(workspaces, and(target("workspace", workspaces.id), eq(workspaces.id, workspaceId)))
    .where(and(eq(auditEvents.workspaceId, workspaceId), cursor ? keysetCondition(auditEvents, cursor) : sql`true`))
    .orderBy(desc(auditEvents.createdAt), desc(auditEvents.id))
    .limit(limit + 1);
  const page = rows.slice(0, limit);
  const last = page.at(-1);
  return {
    data: page.map((row) => {
      const actor: AuditEventView["actor"] = row.keyId
        ? { type: "api_key", id: row.keyId, name: row.keyName!, displayKey: row.keyDisplay! }
        : row.userId
          ? { type: "user", id: row.userId, name: row.userName!, email: row.userEmail! }
          : null;
      const recorded = text(row.metadata.name) ?? text(row.metadata.email) ?? text(row.metadata.url) ?? text(row.metadata.phone);
      const contact = row.contactPhone ? { name: row.contactName ?? row.contactPhone, detail: row.contactName ? row.contactPhone : null } : null;
      const user = row.targetUserName ? { name: row.targetUserName, detail: row.targetUserEmail } : null;
      const targetName =
        contact?.name ?? user?.name ?? row.campaignName ?? row.targetKeyName ?? row.senderName ?? row.endpointUrl ?? row.invitationEmail ?? row.workspaceName ?? recorded;
      return {
        id: row.id,
        createdAt: row.createdAt.toISOString(),
        actor,
        action: row.action,
        targetType: row.targetType,
        targetId: row.targetId,
        targetName,
        targetDetail: contact?.detail ?? user?.detail ?? null,
        metadata: row.metadata,
        ip: row.ip,
        ipNote: row.ip ? null : missingAddressNote(actor),
      };
    }),
    nextCursor: rows.length > limit && last ? encodeCursor({ createdAt: last.position, id: last.id, direction: "older" }) : null,
  };
}
