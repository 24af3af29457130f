// What the failing-sender banner says on the campaigns list, the campaign page and the logs: built
// from `senderHealth`, so every page warns on the same rule.
import type { Executor } from "@/db";
import { getChannel, type ChannelName, type SenderTroubleKind } from "@/lib/channels";
import { getSenderRow, senderHealth, type SenderHealth } from "./service";

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
export function bannerFromHealth(health: SenderHealth, provider: ChannelName): SenderBannerData | null {
  if (!health.failing) return null;
  const kind = senderTroubleKind(health.code, provider);
  return {
    kind,
    title: TITLES[kind],
    reason: health.reason,
    code: health.code,
    since: health.since,
    pendingMessages: health.pendingMessages,
    provider,
    href: SENDER_SETTINGS_HREF,
  };
}

/** The banner for the workspace's current sender, or null while its last sends went fine. */
export async function senderBanner(db: Executor, workspaceId: string): Promise<SenderBannerData | null> {
  const health = await senderHealth(db, workspaceId);
  if (!health.failing) return null;
  return bannerFromHealth(health, (await getSenderRow(db, workspaceId)).provider);
}
