// What each role of a workspace may do beyond building campaigns, managing contacts and reading the
// message logs (which every member does).
import type { MemberRole } from "@/db/schema";

export type { MemberRole };

/**
 * Owners and admins manage the workspace (API keys, the sender, webhooks, alerts, members) and read
 * what holds people's personal data beyond the message logs: the audit log (who changed what, from
 * which address) and trigger request bodies (customers' phone numbers and addresses as integrations
 * sent them).
 */
export const ADMIN_ROLES = ["owner", "admin"] as const satisfies readonly MemberRole[];

export function isOwnerOrAdmin(role: MemberRole): boolean {
  return (ADMIN_ROLES as readonly MemberRole[]).includes(role);
}
