"use client";

import { useCallback, useEffect, useSyncExternalStore } from "react";
import { requestJson } from "@/lib/http/client";
import type { CampaignSource } from "@/lib/sources/kinds";

type Entry = { source: CampaignSource | null; error: string | null; loading: boolean };

// The source card changes the source; the connect card and the deploy dialog show it. One store per
// page keeps them in step without threading state through the builder.
const entries = new Map<string, Entry>();
const listeners = new Set<() => void>();
const EMPTY: Entry = { source: null, error: null, loading: true };

function put(campaignId: string, entry: Entry) {
  entries.set(campaignId, entry);
  for (const listener of listeners) listener();
}

function subscribe(listener: () => void) {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

async function load(campaignId: string) {
  const result = await requestJson<CampaignSource>(`/api/v1/campaigns/${campaignId}/source`);
  if (result.ok) put(campaignId, { source: result.data, error: null, loading: false });
  else put(campaignId, { source: entries.get(campaignId)?.source ?? null, error: result.problem.detail, loading: false });
}

export function useCampaignSource(campaignId: string) {
  const entry = useSyncExternalStore(
    subscribe,
    () => entries.get(campaignId) ?? EMPTY,
    () => EMPTY,
  );
  useEffect(() => {
    if (!entries.has(campaignId)) {
      entries.set(campaignId, EMPTY);
      void load(campaignId);
    }
  }, [campaignId]);
  const update = useCallback((source: CampaignSource) => put(campaignId, { source, error: null, loading: false }), [campaignId]);
  return { ...entry, update };
}
