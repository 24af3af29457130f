import { z } from "zod";
import { templateDefinitionSchema } from "./definition";

/** `GET /api/v1/templates` and the template sync: whose templates (left out: the default sender's). */
export const templatesQuerySchema = z.object({
  senderId: z
    .preprocess((value) => (value === "" ? undefined : value), z.string().max(64).optional())
    .meta({ description: "The sender whose templates to list (its business account's, or the sandbox's); left out: the workspace's default sender." }),
});

/** `POST /api/v1/templates`: a template written in the app, submitted for review. */
export const submitTemplateSchema = templateDefinitionSchema.extend({
  senderId: z.string().max(64).optional().meta({ description: "The sender whose business account gets the template (left out: the workspace's default sender)." }),
});
