// What the journey's editors read besides the step itself: the workspace's templates, attributes,
// senders, lists and campaigns, and the fields the trigger maps.
import type { JourneyStep } from "@/lib/campaigns/journey";
import type { TemplateView } from "@/lib/templates/service";
import type { SenderOption } from "../campaign-sender-select";

export interface JourneyEnv {
  campaignId: string;
  templates: TemplateView[];
  /** Attributes a blank can take: the ones the trigger writes, then the stored ones. */
  attributes: { fromTrigger: string[]; stored: string[] };
  /** The request field paths the trigger maps (branch conditions on trigger fields pick from these). */
  mappedFields: string[];
  senders: SenderOption[];
  lists: { id: string; name: string }[];
  campaigns: { id: string; name: string }[];
  editable: boolean;
}

export type StepChange = (step: JourneyStep) => void;
