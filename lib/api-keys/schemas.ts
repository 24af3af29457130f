// Shared by the create-key form (browser) and the route handler (server): no server imports here.
import { z } from "zod";

export const API_KEY_NAME_MAX_LENGTH = 100;

export const apiKeyNameSchema = z
  .string({ error: "Enter a name for the key." })
  .trim()
  .min(1, "Enter a name for the key.")
  .max(API_KEY_NAME_MAX_LENGTH, `Use at most ${API_KEY_NAME_MAX_LENGTH} characters.`)
  .refine((value) => !/\p{Cc}/u.test(value), "The name cannot contain control characters.");

/** More than any real integration needs; keeps the key row and the check small. */
export const MAX_SCOPED_CAMPAIGNS = 100;

/** What a key may do: everything, or trigger the listed campaigns and nothing else. */
export type ApiKeyScope = { type: "full" } | { type: "trigger"; campaignIds: string[] };

export const apiKeyScopeSchema = z.union([
  z.literal("full"),
  z
    .object({
      type: z.literal("trigger"),
      campaignIds: z
        .array(z.string().regex(/^cmp_[A-Za-z0-9]{1,64}$/, "Not a campaign id."))
        .min(1, "Choose at least one campaign the key may trigger.")
        .max(MAX_SCOPED_CAMPAIGNS, `A key can be limited to at most ${MAX_SCOPED_CAMPAIGNS} campaigns.`),
    })
    .strict(),
]);

export const createApiKeySchema = z.object({ name: apiKeyNameSchema, scope: apiKeyScopeSchema.optional() });

export type CreateApiKeyInput = z.input<typeof createApiKeySchema>;

/** A key as lists show it: never the key or its hash. Dates are ISO 8601 strings. */
export interface ApiKeyListItem {
  id: string;
  name: string;
  displayKey: string;
  createdAt: string;
  lastUsedAt: string | null;
  createdBy: { id: string; name: string } | null;
  scope: ApiKeyScope;
}

/** The creation response: the only place the full key ever appears. */
export interface CreatedApiKey {
  id: string;
  name: string;
  key: string;
  displayKey: string;
  createdAt: string;
  scope: ApiKeyScope;
}
