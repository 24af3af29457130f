// A campaign's trigger and message configuration, parsed and compiled (the request schema) once
// per campaign version instead of on every request. The context query returns the stored JSON as
// text; an entry is reused only while that text is unchanged, so an edit (or a hand-made change
// that kept the version) is seen by the next request.
import { parseStoredMessageConfig, parseStoredTriggerConfig, type MessageConfig, type TriggerConfig } from "@/lib/campaigns/schemas";
import { triggerItemSchema } from "./validation";

export interface CompiledCampaignConfig {
  triggerConfig: TriggerConfig;
  messageConfig: MessageConfig;
  itemSchema: ReturnType<typeof triggerItemSchema>;
}

interface Entry {
  version: number;
  triggerText: string;
  messageText: string;
  compiled: CompiledCampaignConfig;
}

const MAX_CAMPAIGNS = 1000;

// On globalThis: Next.js may load this module in more than one module graph per process.
const cache = ((globalThis as { __sendstreamCampaignConfigs?: Map<string, Entry> }).__sendstreamCampaignConfigs ??= new Map());

export interface StoredCampaignConfig {
  id: string;
  version: number;
  /** `trigger_config::text` */
  trigger_config: string;
  /** `message_config::text` */
  message_config: string;
}

export function compiledCampaignConfig(campaign: StoredCampaignConfig): CompiledCampaignConfig {
  const version = Number(campaign.version);
  const hit = cache.get(campaign.id);
  if (hit && hit.version === version && hit.triggerText === campaign.trigger_config && hit.messageText === campaign.message_config) {
    return hit.compiled;
  }
  const triggerConfig = parseStoredTriggerConfig(parseJson(campaign.trigger_config));
  const messageConfig = parseStoredMessageConfig(parseJson(campaign.message_config));
  const compiled = { triggerConfig, messageConfig, itemSchema: triggerItemSchema(triggerConfig) };
  cache.delete(campaign.id);
  if (cache.size >= MAX_CAMPAIGNS) cache.delete(cache.keys().next().value!);
  cache.set(campaign.id, { version, triggerText: campaign.trigger_config, messageText: campaign.message_config, compiled });
  return compiled;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return {};
  }
}

/** Test hook: forget every compiled campaign. */
export function clearCompiledCampaignConfigs(): void {
  cache.clear();
}
