"use client";

import { useApi } from "../use-api";

/**
 * The country a phone field without a country code starts with: the workspace's default country (Settings →
 * Workspace), "" for none. The one place deciding it; a form may pick another country for that one use.
 */
export function useWorkspaceDefaultCountry(): { country: string; loading: boolean } {
  const answer = useApi<{ defaultCountry: string | null }>("/api/workspace/default-country");
  return { country: answer.data?.defaultCountry ?? "", loading: answer.loading };
}
