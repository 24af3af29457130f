"use client";

import { useEffect, useState } from "react";
import { requestJson } from "@/lib/http/client";
import type { CampaignProgress } from "./types";

/** Statuses whose numbers still move: the page polls while a campaign is in one of them. */
export const LIVE_STATUSES = new Set(["scheduled", "sending", "paused"]);
export const POLL_INTERVAL_MS = 2500;

/**
 * The campaign's progress, fetched every 2.5 s while it is live (so it is never more than a few
 * seconds stale) and once more after it turns final; `refresh()` fetches at once.
 */
export function useCampaignProgress(campaignId: string, initial: CampaignProgress | null, status: string) {
  const [progress, setProgress] = useState<CampaignProgress | null>(initial);
  const [tick, setTick] = useState(0);
  const current = progress?.status ?? status;
  const live = LIVE_STATUSES.has(current);

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      const result = await requestJson<CampaignProgress>(`/api/v1/campaigns/${campaignId}/progress`, { signal: controller.signal });
      if (controller.signal.aborted) return;
      if (result.ok) setProgress(result.data);
      if (live && !document.hidden) timer = setTimeout(load, POLL_INTERVAL_MS);
      else if (live) timer = setTimeout(load, POLL_INTERVAL_MS * 4);
    };
    if (live || tick > 0 || !initial) void load();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [campaignId, live, tick, initial]);

  return { progress, refresh: () => setTick((t) => t + 1) };
}
