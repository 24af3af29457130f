// A template message's variable mapping (template variable → contact attribute, with a fallback):
// the campaign's own message and each journey send step use it.
import { z } from "zod";
import { identifierSchema } from "@/lib/contacts/identifiers";

export const MAX_FALLBACK_LENGTH = 1024;

const fallbackSchema = z
  .string()
  .max(MAX_FALLBACK_LENGTH, `At most ${MAX_FALLBACK_LENGTH} characters.`)
  .nullable()
  .transform((value) => (value === null || value.trim() === "" ? null : value));

export const variableMappingSchema = z.object({
  key: z.string().min(1).max(200),
  attribute: identifierSchema.nullable(),
  fallback: fallbackSchema,
});

export const messageConfigSchema = z
  .object({
    variables: z.array(variableMappingSchema).max(100),
  })
  .superRefine((config, ctx) => {
    const seen = new Set<string>();
    config.variables.forEach((variable, index) => {
      if (seen.has(variable.key)) {
        ctx.addIssue({ code: "custom", path: ["variables", index, "key"], message: `The variable ${variable.key} is mapped twice.` });
      }
      seen.add(variable.key);
    });
  });
export type MessageConfig = z.output<typeof messageConfigSchema>;
export type VariableMapping = MessageConfig["variables"][number];
