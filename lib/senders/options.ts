// The senders a campaign can choose, as the builders' sender select lists them.
import type { Executor } from "@/db";
import type { ChannelName } from "@/lib/channels/types";
import { listSenderRows } from "./service";

export interface CampaignSenderOption {
  id: string;
  name: string;
  provider: ChannelName;
  /** The display number (or its id until a connection test named it); "Simulated" for the sandbox. */
  number: string;
  isDefault: boolean;
}

export async function campaignSenderOptions(db: Executor, workspaceId: string): Promise<CampaignSenderOption[]> {
  const rows = await listSenderRows(db, workspaceId);
  return rows.map((row) => ({
    id: row.id,
    name: row.name,
    provider: row.provider,
    number: row.provider === "sandbox" ? "Simulated" : (row.displayPhoneNumber ?? (row.phoneNumberId ? `ID ${row.phoneNumberId}` : "Not set up")),
    isDefault: row.isDefault,
  }));
}
