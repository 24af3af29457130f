// The bulk builder's state outside the template form: audience, schedule, rate and send policy, and the PATCH body.
import type { CampaignEditorValues } from "@/lib/campaigns/schemas";
import type { CampaignView } from "@/lib/campaigns/service";
import { NO_SEND_POLICY, type SendPolicy } from "@/lib/campaigns/send-policy";
import type { ScheduleValue } from "./schedule-card";
import type { AudienceSelection } from "./types";
import { instantToZonedTime } from "./zoned-time";

/** A campaign as the bulk pages read it (`bulk` is null only for trigger campaigns). */
export type BulkCampaign = CampaignView;

export interface BulkSettings {
  audience: AudienceSelection;
  schedule: ScheduleValue;
  rate: string;
  sendPolicy: SendPolicy;
}

export function initialSettings(campaign: BulkCampaign): BulkSettings {
  const bulk = campaign.bulk;
  const zone = bulk?.timeZone ?? "";
  const audience = bulk?.audience;
  return {
    audience: {
      listIds: [...(audience?.listIds ?? [])],
      segmentIds: [...(audience?.segmentIds ?? [])],
      ...(audience?.contactIds ? { contactIds: [...audience.contactIds] } : {}),
      ...(audience?.excludeContactIds ? { excludeContactIds: [...audience.excludeContactIds] } : {}),
      excludeContactsWithEmptyVariables: audience?.excludeContactsWithEmptyVariables ?? false,
      // Chosen in the launch dialog; kept as stored so saving the builder never drops it.
      ...(audience?.includeUnknownConsent !== undefined ? { includeUnknownConsent: audience.includeUnknownConsent } : {}),
    },
    schedule: {
      mode: bulk?.scheduledAt ? "later" : "now",
      local: bulk?.scheduledAt && zone ? instantToZonedTime(new Date(bulk.scheduledAt), zone) : "",
      timeZone: zone,
    },
    rate: bulk?.sendRatePerSecond ? String(bulk.sendRatePerSecond) : "",
    sendPolicy: structuredClone(campaign.sendPolicy ?? NO_SEND_POLICY),
  };
}

/** True when what `PATCH` saves differs (the schedule is sent by Schedule, not saved with the draft). */
export function settingsChanged(saved: BulkSettings, current: BulkSettings): boolean {
  return JSON.stringify([saved.audience, saved.rate, saved.sendPolicy]) !== JSON.stringify([current.audience, current.rate, current.sendPolicy]);
}

/** `PATCH /api/v1/campaigns/{id}` for a bulk campaign: only members the API declares. */
export function bulkUpdateBody(values: CampaignEditorValues, settings: BulkSettings, version: number) {
  return {
    name: values.name,
    templateId: values.templateId,
    messageConfig: { variables: values.messageConfig.variables.map(({ key, attribute, fallback }) => ({ key, attribute, fallback })) },
    audience: settings.audience,
    sendRatePerSecond: settings.rate.trim() === "" ? null : Number(settings.rate),
    sendPolicy: settings.sendPolicy,
    version,
  };
}
