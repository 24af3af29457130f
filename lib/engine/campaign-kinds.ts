// The campaign kinds of this product, registered with the kind-agnostic campaign code
// (lib/campaigns/kinds.ts). Every process entry point imports this module before serving: the
// server's start-up (instrumentation-node.ts), the worker, the test setup and the benches.
// Adding a kind is one folder implementing `CampaignKindDefinition` and one entry here.
import { bulkKind } from "@/lib/bulk/kind";
import { registerCampaignKinds } from "@/lib/campaigns/kinds";
import { triggerKind } from "@/lib/trigger/kind";

export const CAMPAIGN_KIND_DEFINITIONS = [triggerKind, bulkKind] as const;

registerCampaignKinds(CAMPAIGN_KIND_DEFINITIONS);
