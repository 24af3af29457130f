// Request shapes of the runs and events API, shared with the web app: no server imports here.
import { z } from "zod";
import { journeyRunStatuses } from "@/db/schema";
import { journeyEventNameSchema } from "@/lib/campaigns/journey";
import { e164PhoneSchema } from "@/lib/contacts/phone";
import { pageQueryShape } from "@/lib/contacts/schemas";

/** An event's properties as JSON: at most 8 KB. */
export const MAX_EVENT_PROPERTIES_BYTES = 8 * 1024;

const emptyToUndefined = (value: unknown) => (value === "" ? undefined : value);
const optionalText = (max: number, description: string) => z.preprocess(emptyToUndefined, z.string().trim().max(max).optional()).meta({ description });

export const listJourneyRunsQuerySchema = z.object({
  ...pageQueryShape,
  campaignId: optionalText(100, "Only runs of this journey campaign."),
  contactId: optionalText(100, "Only this contact's runs."),
  phone: z.preprocess(emptyToUndefined, e164PhoneSchema.optional()).meta({ description: "Only runs for this phone number (E.164)." }),
  status: z.preprocess(emptyToUndefined, z.enum(journeyRunStatuses).optional()).meta({ description: "Only runs in this status." }),
});
export type ListJourneyRunsQuery = z.output<typeof listJourneyRunsQuerySchema>;

export const contactJourneyRunsQuerySchema = listJourneyRunsQuerySchema.pick({ limit: true, cursor: true, campaignId: true, status: true });

export const journeyEventSchema = z
  .object({
    name: journeyEventNameSchema.meta({ description: "The event, as journeys name it in their exit, entry and awaited events.", example: "order_placed" }),
    phone: e164PhoneSchema.optional().meta({ description: "The contact's phone number (E.164). Send `phone` or `contactId`, not both.", example: "+14155552671" }),
    contactId: z.string().regex(/^ctc_[A-Za-z0-9]{1,64}$/, "Not a contact id.").optional().meta({ description: "The contact's id. Send `phone` or `contactId`, not both." }),
    properties: z
      .record(z.string(), z.unknown())
      .default({})
      .refine((value) => new TextEncoder().encode(JSON.stringify(value)).length <= MAX_EVENT_PROPERTIES_BYTES, {
        message: `At most ${MAX_EVENT_PROPERTIES_BYTES / 1024} KB of properties (as JSON).`,
        params: { code: "too_large" },
      })
      .meta({ description: "Anything about the event (an object, at most 8 KB as JSON): runs it starts keep it for their branches." }),
  })
  .strict()
  .superRefine((event, ctx) => {
    if ((event.phone === undefined) === (event.contactId === undefined)) {
      ctx.addIssue({ code: "custom", path: ["phone"], message: "Send exactly one of `phone` and `contactId`.", params: { code: "phone_or_contact" } });
    }
  });
export type JourneyEventInput = z.output<typeof journeyEventSchema>;

export const MAX_TIME_SCALE = 3600;

export const journeyTestRequestSchema = z
  .object({
    phone: z.string().min(1).max(40).meta({ description: "Who gets the test run's messages (E.164)." }),
    request: z.record(z.string(), z.unknown()).default({}).meta({ description: "An example trigger request body: its mapped fields are the run's context." }),
    timeScale: z.number().int().min(1).max(MAX_TIME_SCALE).default(60).meta({ description: "Waits and timeouts are divided by this: 60 makes an hour a minute." }),
  })
  .strict();
