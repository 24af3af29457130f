// Shared by the create-key form (browser) and the route handler (server): no server imports here.
import { z } from "zod";

export const API_KEY_NAME_MAX_LENGTH = 100;

export const apiKeyNameSchema = z
  .string({ error: "Enter a name for the key." })
  .trim()
  .min(1, "Enter a name for the key.")
  .max(API_KEY_NAME_MAX_LENGTH, `Use at most ${API_KEY_NAME_MAX_LENGTH} characters.`)
  .refine((value) => !/\p{Cc}/u.test(value), "The name cannot contain control characters.");

export const createApiKeySchema = z.object({ name: apiKeyNameSchema });

export type CreateApiKeyInput = z.input<typeof createApiKeySchema>;

/** A key as lists show it: never the key or its hash. Dates are ISO 8601 strings. */
export interface ApiKeyListItem {
  id: string;
  name: string;
  displayKey: string;
  createdAt: string;
  lastUsedAt: string | null;
  createdBy: { id: string; name: string } | null;
}

/** The creation response: the only place the full key ever appears. */
export interface CreatedApiKey {
  id: string;
  name: string;
  key: string;
  displayKey: string;
  createdAt: string;
}
