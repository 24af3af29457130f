// The bulk campaign API's answers as the web app reads them (lib/bulk/schemas.ts, lib/bulk/README.md).
import type { z } from "zod";
import type {
  audienceCountResponseSchema,
  launchCheckResponseSchema,
  previewResponseSchema,
  progressResponseSchema,
  RetargetAudience,
} from "@/lib/bulk/schemas";
import type { BulkAudience } from "@/lib/campaigns/schemas";

export type { RetargetAudience };
export type AudienceSelection = Pick<BulkAudience, "listIds" | "segmentIds" | "contactIds" | "excludeContactIds" | "excludeContactsWithEmptyVariables" | "includeUnknownConsent">;
export type AudienceCount = z.output<typeof audienceCountResponseSchema>;
export type PreviewAnswer = z.output<typeof previewResponseSchema>;
export type LaunchCheck = z.output<typeof launchCheckResponseSchema>;
export type CampaignProgress = z.output<typeof progressResponseSchema>;
export type Funnel = CampaignProgress["funnel"];

export interface AudienceOption {
  id: string;
  name: string;
  contactCount: number;
}

