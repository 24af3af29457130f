import { z } from "zod";
import { CHANNEL_NAMES } from "@/lib/channels/types";
import { MESSAGING_TIERS, type MessagingTier } from "./tier";

const graphId = (label: string) =>
  z
    .string()
    .trim()
    .min(1, `Enter the ${label}.`)
    .regex(/^\d{5,30}$/, `The ${label} is a numeric ID of 5 to 30 digits from API Setup in Meta for Developers, not the phone number itself.`);

export const phoneNumberIdSchema = graphId("phone number ID");
export const wabaIdSchema = graphId("WhatsApp Business Account ID");

/** Blank secret fields mean "keep the stored value". */
const optionalSecret = z
  .string()
  .max(2000)
  .optional()
  .transform((value) => (value && value.trim() !== "" ? value.trim() : undefined));

export { MESSAGING_TIERS, type MessagingTier };

/** WhatsApp's messaging limit (unique customers a day, outside a service window); null = unknown. */
export const messagingTierSchema = z.enum(MESSAGING_TIERS, { error: "Choose one of the listed messaging limits." }).nullable();

export function isMessagingTier(value: unknown): value is MessagingTier {
  return typeof value === "string" && (MESSAGING_TIERS as readonly string[]).includes(value);
}

/** The WhatsApp form as Save and Test connection both validate it. */
/** A WhatsApp number's connection fields, as the settings form and a new sender both take them. */
const whatsappConnectionFields = {
  phoneNumberId: phoneNumberIdSchema,
  wabaId: wabaIdSchema,
  accessToken: optionalSecret,
  appSecret: optionalSecret,
  verifyToken: optionalSecret,
  /** Left out: the stored limit stays as it is. */
  messagingTier: messagingTierSchema.optional(),
};

export const whatsappSenderSettingsSchema = z.object({ provider: z.literal("whatsapp"), ...whatsappConnectionFields });

export const senderSettingsSchema = z.discriminatedUnion("provider", [z.object({ provider: z.literal("sandbox") }), whatsappSenderSettingsSchema]);
export type SenderSettingsInput = z.input<typeof senderSettingsSchema>;
export type SenderSettings = z.output<typeof senderSettingsSchema>;

/** Credentials to check with "Test connection" (blank access token → the stored one). */
export const senderConnectionSchema = z.object({
  phoneNumberId: phoneNumberIdSchema,
  accessToken: optionalSecret,
});
export type SenderConnectionInput = z.input<typeof senderConnectionSchema>;

const senderName = z.string().trim().min(1, "Name the sender.").max(80, "Keep the name under 80 characters.");
const secret = z.string().max(2000);

/** A new sender: the sandbox, or a WhatsApp number with its credentials (the access token is required). */
export const createSenderSchema = z.discriminatedUnion("provider", [
  z.object({
    provider: z.literal("sandbox"),
    name: senderName.optional(),
    isDefault: z.boolean().optional(),
  }),
  z.object({
    provider: z.literal("whatsapp"),
    name: senderName.optional(),
    isDefault: z.boolean().optional(),
    ...whatsappConnectionFields,
  }),
]);
export type CreateSenderInput = z.input<typeof createSenderSchema>;

/** A change of a sender: any of its name, default flag and connection; blank secrets keep the stored ones. */
export const updateSenderSchema = z.object({
  name: senderName.optional(),
  isDefault: z.literal(true, { error: "A sender stops being the default when another one becomes it: set isDefault: true on that one." }).optional(),
  provider: z.enum(CHANNEL_NAMES).optional(),
  phoneNumberId: phoneNumberIdSchema.optional(),
  wabaId: wabaIdSchema.optional(),
  accessToken: secret.optional(),
  appSecret: secret.optional(),
  verifyToken: secret.optional(),
  messagingTier: messagingTierSchema.optional(),
});
export type UpdateSenderInput = z.input<typeof updateSenderSchema>;

export const deleteSenderQuerySchema = z.object({
  replacement: z
    .string()
    .trim()
    .min(1)
    .max(64)
    .optional()
    .meta({ description: "Another sender's id: it takes the deleted sender's campaigns over and, when the deleted one was the default, becomes the default.", example: "snd_5TgB6yHn7uJm8IkO" }),
});

/** `?senderId=` of the web app's sender settings routes (left out: the default sender). */
export const senderQuerySchema = z.object({
  senderId: z.preprocess((value) => (value === "" ? undefined : value), z.string().max(64).optional()),
});
