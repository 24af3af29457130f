import { z } from "zod";
import { DEFAULT_OVERLAP_HOURS, MAX_OVERLAP_HOURS, MAX_SECRET_LENGTH, MAX_TOPIC_LENGTH, MAX_TOPICS, MIN_SECRET_LENGTH, SOURCE_KINDS } from "./kinds";

export const sourceTopicSchema = z
  .string()
  .trim()
  .min(1, { error: "A topic cannot be empty." })
  .max(MAX_TOPIC_LENGTH, { error: `A topic has at most ${MAX_TOPIC_LENGTH} characters.` })
  .regex(/^[\x21-\x7e]+$/, { error: "A topic is printable ASCII without spaces, e.g. orders/create, order.created or checkout.session.completed." });

export const putSourceSchema = z.strictObject({
  kind: z.enum(SOURCE_KINDS, { error: `kind is one of ${SOURCE_KINDS.join(", ")}.` }),
  topics: z
    .array(sourceTopicSchema)
    .max(MAX_TOPICS, { error: `At most ${MAX_TOPICS} topics.` })
    .default([])
    .transform((topics) => [...new Set(topics)]),
});
export type PutSourceInput = z.infer<typeof putSourceSchema>;

export const setSecretSchema = z.strictObject({
  /** Pasted from the shop; absent: one is generated. */
  secret: z
    .string()
    .min(MIN_SECRET_LENGTH, { error: `A secret has ${MIN_SECRET_LENGTH} to ${MAX_SECRET_LENGTH} characters.` })
    .max(MAX_SECRET_LENGTH, { error: `A secret has ${MIN_SECRET_LENGTH} to ${MAX_SECRET_LENGTH} characters.` })
    .regex(/^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/, { error: "A secret is printable ASCII, with no space at either end: copy it again from the shop." })
    .optional(),
  /** Hours the secret being replaced stays valid (0: at once invalid). */
  overlapHours: z.number().int().min(0).max(MAX_OVERLAP_HOURS, { error: `overlapHours is 0 to ${MAX_OVERLAP_HOURS}.` }).default(DEFAULT_OVERLAP_HOURS),
});
export type SetSecretInput = z.infer<typeof setSecretSchema>;
