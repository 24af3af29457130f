// What the failing-sender banner says on the campaigns list, the campaign page and the logs: built
// from `senderHealth` per sender, so every page warns on the same rule.
import type { Executor } from "@/db";
import { getChannel, type ChannelName, type SenderTroubleKind } from "@/lib/channels";
import { senderHealth, type SenderHealth } from "./health";
import { listSenderRows, type SenderRow } from "./service";

export type { SenderTroubleKind };

export interface SenderBannerData {
  kind: SenderTroubleKind;
  /** One line naming the trouble. */
  title: string;
  /** The latest failure's reason as the provider or the dispatcher gave it. */
  reason: string | null;
  code: string | null;
  /** When the run of failures began (ISO 8601). */
  since: string | null;
  /** Messages still queued for this sender: they go out once it works again, or fail if it is replaced. */
  pendingMessages: number;
  provider: ChannelName;
  senderId: string;
  senderName: string;
  /** Other senders of the workspace failing at the same time. */
  otherFailingSenders: number;
  /** Where to fix it. */
  href: string;
}

export const SENDER_SETTINGS_HREF = "/settings/whatsapp";

/** Which kind of trouble an error code of a sender-level failure stands for (its channel knows its codes). */
export function senderTroubleKind(code: string | null, provider: ChannelName = "whatsapp"): SenderTroubleKind {
  if (code === null || code === "outcome_unknown") return "connectivity";
  return getChannel(provider).senderTrouble(code) ?? "credentials";
}

const TITLES: Record<SenderTroubleKind, string> = {
  credentials: "WhatsApp is refusing your sender's access token or permissions",
  connectivity: "Sendstream cannot reach the WhatsApp Cloud API",
  account: "WhatsApp has restricted your business account",
  setup: "Your WhatsApp sender is not set up completely",
};

/** The banner for a sender's health, or null while its last sends went fine. */
export function bannerFromHealth(health: SenderHealth, sender: Pick<SenderRow, "id" | "name" | "provider">, otherFailingSenders = 0): SenderBannerData | null {
  if (!health.failing) return null;
  const kind = senderTroubleKind(health.code, sender.provider);
  return {
    kind,
    title: TITLES[kind],
    reason: health.reason,
    code: health.code,
    since: health.since,
    pendingMessages: health.pendingMessages,
    provider: sender.provider,
    senderId: sender.id,
    senderName: sender.name,
    otherFailingSenders,
    href: `${SENDER_SETTINGS_HREF}/${sender.id}`,
  };
}

/** Each sender of the workspace with its health (the default first). */
export async function sendersWithHealth(db: Executor, workspaceId: string): Promise<{ sender: SenderRow; health: SenderHealth }[]> {
  const rows = await listSenderRows(db, workspaceId);
  return Promise.all(rows.map(async (sender) => ({ sender, health: await senderHealth(db, workspaceId, sender.id) })));
}

/** The banner for the workspace's first failing sender (the default first), or null while every sender's last sends went fine. */
export async function senderBanner(db: Executor, workspaceId: string): Promise<SenderBannerData | null> {
  const failing = (await sendersWithHealth(db, workspaceId)).filter((s) => s.health.failing);
  const first = failing[0];
  return first ? bannerFromHealth(first.health, first.sender, failing.length - 1) : null;
}
