import { z } from "zod";

/** `GET /api/v1/templates` and the template sync: whose templates (left out: the default sender's). */
export const templatesQuerySchema = z.object({
  senderId: z
    .preprocess((value) => (value === "" ? undefined : value), z.string().max(64).optional())
    .meta({ description: "The sender whose templates to list (its business account's, or the sandbox's); left out: the workspace's default sender." }),
});
