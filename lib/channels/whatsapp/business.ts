// WhatsApp Business Management calls: the phone number's profile and limits, and template listing.
import type { ChannelTemplate } from "../types";
import { graphRequest, type GraphConfig } from "./graph";
import { describeTemplateRejection } from "./templates";

export interface PhoneNumberInfo {
  id: string;
  displayPhoneNumber: string | null;
  verifiedName: string | null;
  qualityRating: string | null;
  /** Meta's throughput level (STANDARD = 80 msg/s, HIGH = up to 1,000 msg/s). */
  throughputLevel: string | null;
  throughputPerSecond: number;
  /** The messaging limit WhatsApp reports (TIER_250 … TIER_UNLIMITED, or an older spelling), as it reports it. */
  messagingLimit: string | null;
}

interface PhoneNumberResponse {
  id?: string;
  display_phone_number?: string;
  verified_name?: string;
  quality_rating?: string;
  throughput?: { level?: string };
  /** True for a number also used in the WhatsApp Business app (coexistence). */
  is_on_biz_app?: boolean;
  whatsapp_business_manager_messaging_limit?: string;
  messaging_limit_tier?: string;
}

export const DEFAULT_THROUGHPUT_PER_SECOND = 80;
/** A number Meta upgraded (throughput level HIGH). */
export const HIGH_THROUGHPUT_PER_SECOND = 1000;
/** A number also used in the WhatsApp Business app (coexistence) sends at most this many messages a second. */
export const COEXISTENCE_THROUGHPUT_PER_SECOND = 20;

export function throughputForLevel(level: string | null | undefined, coexistence = false): number {
  if (coexistence) return COEXISTENCE_THROUGHPUT_PER_SECOND;
  return String(level ?? "").toUpperCase() === "HIGH" ? HIGH_THROUGHPUT_PER_SECOND : DEFAULT_THROUGHPUT_PER_SECOND;
}

export async function getPhoneNumberInfo(config: GraphConfig, phoneNumberId: string): Promise<PhoneNumberInfo> {
  const body = await graphRequest<PhoneNumberResponse>(config, "GET", encodeURIComponent(phoneNumberId), {
    query: {
      fields: "id,display_phone_number,verified_name,quality_rating,throughput,whatsapp_business_manager_messaging_limit,messaging_limit_tier,is_on_biz_app",
    },
  });
  const level = body.throughput?.level ?? null;
  return {
    id: body.id ?? phoneNumberId,
    displayPhoneNumber: body.display_phone_number ?? null,
    verifiedName: body.verified_name ?? null,
    qualityRating: body.quality_rating ?? null,
    throughputLevel: level,
    throughputPerSecond: throughputForLevel(level, body.is_on_biz_app === true),
    messagingLimit: body.whatsapp_business_manager_messaging_limit ?? body.messaging_limit_tier ?? null,
  };
}


/** A template as the Graph API lists it: the channel's template, with WhatsApp's id as `id`. */
export type RemoteTemplate = Omit<ChannelTemplate, "externalId"> & { id: string | null };

interface TemplatePage {
  data?: {
    id?: string;
    name?: string;
    language?: string;
    category?: string;
    status?: string;
    parameter_format?: string;
    components?: unknown[];
    /** Why Meta rejected it (`INVALID_FORMAT`, `NONE` when not rejected). */
    rejected_reason?: string;
  }[];
  paging?: { cursors?: { after?: string }; next?: string };
}

/** Every template of a WhatsApp Business Account, following the cursor paging to the end. */
export async function listMessageTemplates(
  config: GraphConfig,
  wabaId: string,
  options: { pageSize?: number; maxPages?: number } = {},
): Promise<RemoteTemplate[]> {
  const templates: RemoteTemplate[] = [];
  const maxPages = options.maxPages ?? 50;
  let after: string | undefined;
  for (let page = 0; page < maxPages; page++) {
    const body = await graphRequest<TemplatePage>(config, "GET", `${encodeURIComponent(wabaId)}/message_templates`, {
      query: {
        fields: "id,name,language,category,status,parameter_format,components,rejected_reason",
        limit: options.pageSize ?? 100,
        after,
      },
    });
    for (const item of body.data ?? []) {
      if (!item.name || !item.language) continue;
      const status = String(item.status ?? "PENDING").toUpperCase();
      templates.push({
        id: item.id ?? null,
        name: item.name,
        language: item.language,
        category: String(item.category ?? "UTILITY").toUpperCase(),
        status,
        parameterFormat: String(item.parameter_format ?? "POSITIONAL").toUpperCase() === "NAMED" ? "NAMED" : "POSITIONAL",
        components: Array.isArray(item.components) ? item.components : [],
        // Worded as the status webhook words it (templates.ts).
        statusReason: status === "REJECTED" && typeof item.rejected_reason === "string" ? describeTemplateRejection(item.rejected_reason) : null,
      });
    }
    after = body.paging?.cursors?.after;
    if (!body.paging?.next || !after) break;
  }
  return templates;
}

/** "TIER_2K" → "2,000 customers / 24 h". */
export function describeMessagingLimit(limit: string | null | undefined): string | null {
  if (!limit) return null;
  const match = /^TIER_(\d+)(K?)$/i.exec(limit.trim());
  if (match) {
    const count = Number(match[1]) * (match[2] ? 1000 : 1);
    return `${count.toLocaleString("en-US")} customers / 24 h`;
  }
  if (/UNLIMITED/i.test(limit)) return "Unlimited";
  return limit;
}
