import { z } from "zod";

const graphId = (label: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{5,30}$/, `The ${label} is the number shown in WhatsApp Manager (digits only).`);

/** Blank secret fields mean "keep the stored value". */
const optionalSecret = z
  .string()
  .max(2000)
  .optional()
  .transform((value) => (value && value.trim() !== "" ? value.trim() : undefined));

export const senderSettingsSchema = z.discriminatedUnion("provider", [
  z.object({ provider: z.literal("sandbox") }),
  z.object({
    provider: z.literal("whatsapp"),
    phoneNumberId: graphId("phone number ID"),
    wabaId: graphId("WhatsApp Business Account ID"),
    accessToken: optionalSecret,
    appSecret: optionalSecret,
    verifyToken: optionalSecret,
  }),
]);
export type SenderSettingsInput = z.input<typeof senderSettingsSchema>;
export type SenderSettings = z.output<typeof senderSettingsSchema>;

/** Credentials to check with "Test connection" (blank access token → the stored one). */
export const senderConnectionSchema = z.object({
  phoneNumberId: graphId("phone number ID"),
  accessToken: optionalSecret,
});
export type SenderConnectionInput = z.input<typeof senderConnectionSchema>;
