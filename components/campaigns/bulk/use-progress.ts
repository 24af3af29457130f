"use client";

import { useEffect, useState } from "react";
import { requestJson } from "@/lib/http/client";
import type { CampaignProgress } from "./types";

/** Statuses whose numbers still move: the page polls while a campaign is in one of them. */
export const LIVE_STATUSES = new Set(["scheduled", "sending", "paused"]);
export const POLL_INTERVAL_MS = 2500;

/** Delivery receipts keep arriving after the last send: until every sent message has one, a final campaign is still read. */
export const RECEIPTS_POLL_INTERVAL_MS = 10_000;

/** How often to fetch progress again: null when nothing can change any more. */
export function progressPollInterval(status: string, funnel: CampaignProgress["funnel"] | undefined): number | null {
  if (LIVE_STATUSES.has(status)) return POLL_INTERVAL_MS;
  if (funnel && funnel.sent > funnel.delivered) return RECEIPTS_POLL_INTERVAL_MS;
  return null;
}

/**
 * The campaign's progress, fetched every 2.5 s while it is live (so it is never more than a few
 * seconds stale), then every 10 s while sent messages still wait for their delivery receipt;
 * `refresh()` fetches at once.
 */
export function useCampaignProgress(campaignId: string, initial: CampaignProgress | null, status: string) {
  const [progress, setProgress] = useState<CampaignProgress | null>(initial);
  const [tick, setTick] = useState(0);
  const current = progress?.status ?? status;
  const interval = progressPollInterval(current, progress?.funnel);

  useEffect(() => {
    const controller = new AbortController();
    let timer: ReturnType<typeof setTimeout> | undefined;
    const load = async () => {
      const result = await requestJson<CampaignProgress>(`/api/v1/campaigns/${campaignId}/progress`, { signal: controller.signal });
      if (controller.signal.aborted) return;
      if (result.ok) setProgress(result.data);
      if (interval !== null) timer = setTimeout(load, document.hidden ? interval * 4 : interval);
    };
    if (interval !== null || tick > 0 || !initial) void load();
    return () => {
      controller.abort();
      clearTimeout(timer);
    };
  }, [campaignId, interval, tick, initial]);

  return { progress, refresh: () => setTick((t) => t + 1) };
}
