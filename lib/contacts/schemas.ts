// Contacts as the REST API reads and writes them. Phone numbers follow the trigger's E.164 rule;
// attribute names follow the campaign builder's identifier rule.
import { z } from "zod";
import { BUILT_IN_ATTRIBUTES, identifierRecord, MAX_STRING_FIELD_LENGTH } from "./identifiers";
import { isStorableText, STORABLE_TEXT_MESSAGE } from "@/lib/http/storable-text";
import { e164PhoneSchema } from "./phone";
import { consentStatuses } from "@/db/schema";

/** A consent status as a body states it. */
export const consentStatusSchema = z.enum(consentStatuses).meta({
  description:
    "`subscribed`: the contact agreed to receive messages (marketing campaigns reach them); `unsubscribed`: never messaged by campaigns; `unknown`: no record either way (utility messages reach them, marketing only when a campaign includes unknown consent).",
  example: "subscribed",
});

export const MAX_CONTACT_ATTRIBUTES = 100;
export const MAX_CONTACT_NAME_LENGTH = 200;

export const contactPhoneSchema = e164PhoneSchema;

/** A stored attribute value: what a trigger field of any type produces. */
export const contactAttributeValueSchema = z.union([
  z
    .string()
    .max(MAX_STRING_FIELD_LENGTH, `At most ${MAX_STRING_FIELD_LENGTH} characters.`)
    .refine(isStorableText, { message: STORABLE_TEXT_MESSAGE, params: { code: "invalid_characters" } }),
  z.number().refine(Number.isFinite, "Expected a finite number."),
  z.boolean(),
]);

export const contactAttributesSchema = identifierRecord(contactAttributeValueSchema)
  .superRefine((attributes, ctx) => {
    const keys = Object.keys(attributes);
    if (keys.length > MAX_CONTACT_ATTRIBUTES) {
      ctx.addIssue({ code: "custom", message: `At most ${MAX_CONTACT_ATTRIBUTES} attributes.` });
    }
    for (const key of keys) {
      if ((BUILT_IN_ATTRIBUTES as readonly string[]).includes(key)) {
        ctx.addIssue({
          code: "custom",
          path: [key],
          message: `"${key}" is a built-in attribute; ${key === "name" ? "send it as the top-level name" : "it comes from the URL"}.`,
        });
      }
    }
  });

/**
 * `PUT /api/v1/contacts/{phone}`: creates the contact or updates it. Attributes are merged into
 * the stored ones (the same rule as a trigger request); an omitted or null name keeps the stored one.
 */
export const upsertContactSchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Leave the name out instead of sending an empty one.")
    .max(MAX_CONTACT_NAME_LENGTH)
    .refine(isStorableText, { message: STORABLE_TEXT_MESSAGE, params: { code: "invalid_characters" } })
    .nullable()
    .optional(),
  attributes: contactAttributesSchema.optional(),
});
export type UpsertContactInput = z.input<typeof upsertContactSchema>;

/** `POST /api/v1/contacts`: an upsert keyed by the phone in the body. */
export const createContactSchema = upsertContactSchema
  .extend({
    phone: contactPhoneSchema,
    consent: consentStatusSchema.optional(),
    optedOut: z.boolean().optional().meta({ description: "Deprecated: send `consent`. `true` is `unsubscribed`; `false` lifts an unsubscribe (`subscribed`)." }),
    ifExists: z
      .enum(["update", "error"])
      .optional()
      .meta({ description: "`update` (the default) updates a contact with this phone; `error` answers 409 `contact_exists` and changes nothing (the web app's Add contact)." }),
  })
  .refine((input) => input.consent === undefined || input.optedOut === undefined, { message: "Send consent or the deprecated optedOut, not both.", path: ["optedOut"] });
export type CreateContactInput = z.output<typeof createContactSchema>;

/** `PATCH /api/v1/contacts/{idOrPhone}`: attributes are merged, a `null` value removes the key. */
export const patchContactSchema = z.object({
  name: upsertContactSchema.shape.name,
  attributes: identifierRecord(contactAttributeValueSchema.nullable())
    .superRefine((attributes, ctx) => {
      if (Object.keys(attributes).length > MAX_CONTACT_ATTRIBUTES) ctx.addIssue({ code: "custom", message: `At most ${MAX_CONTACT_ATTRIBUTES} attributes.` });
      for (const key of Object.keys(attributes)) {
        if ((BUILT_IN_ATTRIBUTES as readonly string[]).includes(key)) {
          ctx.addIssue({ code: "custom", path: [key], message: `"${key}" is a built-in attribute; send the name as the top-level name.` });
        }
      }
    })
    .optional(),
  consent: consentStatusSchema.optional(),
});
export type PatchContactInput = z.output<typeof patchContactSchema>;

const emptyToUndefined = (value: unknown) => (value === "" ? undefined : value);

export const pageQueryShape = {
  limit: z.coerce.number().int().min(1).max(100).default(50).meta({ description: "Page size, 1–100.", example: 20 }),
  cursor: z.preprocess(emptyToUndefined, z.string().min(1).max(512).optional()).meta({ description: "`nextCursor` from the previous page." }),
};

export const listContactsQuerySchema = z.object({
  ...pageQueryShape,
  search: z
    .preprocess(
      emptyToUndefined,
      z.string().trim().max(100, "Searches are at most 100 characters.").refine(isStorableText, { message: STORABLE_TEXT_MESSAGE }).optional(),
    )
    .meta({ description: "A phone number in any formatting (its digits match anywhere in the number) or part of the name.", example: "415 555" }),
  listId: z.preprocess(emptyToUndefined, z.string().max(64).optional()).meta({ description: "Only members of this list." }),
  segmentId: z.preprocess(emptyToUndefined, z.string().max(64).optional()).meta({ description: "Only contacts this segment selects." }),
  optedOut: z
    .preprocess(emptyToUndefined, z.enum(["true", "false"]).optional())
    .transform((value) => (value === undefined ? undefined : value === "true"))
    .meta({ description: "`true`: only opted-out contacts; `false`: only contacts who may receive bulk messages." }),
});
export type ListContactsQuery = z.output<typeof listContactsQuerySchema>;

/** `GET /api/v1/contacts/count`: the list's filters, without paging. */
export const countContactsQuerySchema = listContactsQuerySchema.pick({ search: true, listId: true, segmentId: true, optedOut: true });
export type CountContactsQuery = z.output<typeof countContactsQuerySchema>;

export const pageQuerySchema = z.object(pageQueryShape);
export type PageQuery = z.output<typeof pageQuerySchema>;
