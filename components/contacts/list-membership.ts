"use client";

import { toast } from "@/components/ui/toaster";
import { requestJson } from "@/lib/http/client";

interface MembershipResult {
  changed: number;
  contactCount: number;
}

/** POST or DELETE /api/v1/lists/{id}/contacts; a toast says what changed. True when it worked. */
export async function changeMembers(listId: string, method: "POST" | "DELETE", body: { contactIds: string[] } | { segmentId: string }): Promise<boolean> {
  const result = await requestJson<MembershipResult>(`/api/v1/lists/${listId}/contacts`, { method, body });
  if (!result.ok) {
    toast.error(result.problem.detail);
    return false;
  }
  const n = result.data.changed;
  const who = `${n.toLocaleString("en-US")} ${n === 1 ? "contact" : "contacts"}`;
  toast.success(method === "POST" ? (n === 0 ? "Everyone was already in the list." : `${who} added.`) : `${who} removed.`);
  return true;
}
