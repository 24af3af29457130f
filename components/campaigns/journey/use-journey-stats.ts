"use client";

import { useCallback, useEffect, useState } from "react";
import { useVisibleInterval } from "@/components/ui/use-visible-interval";
import { requestJson, type JsonResult } from "@/lib/http/client";

// The answer of GET /api/v1/campaigns/{id}/journey/stats (types only: nothing of the server is bundled).
export type { JourneyStats, JourneyStepStats as StepStats } from "@/lib/journeys/analytics";
import type { JourneyStats } from "@/lib/journeys/analytics";

const REFRESH_MS = 5000;

/** The journey's live counts, refreshed while the page is visible; null until known, or when the server has none to give (404: no journey deployed). */
export function useJourneyStats(campaignId: string, enabled: boolean): JourneyStats | null {
  const [stats, setStats] = useState<JourneyStats | null>(null);
  const [available, setAvailable] = useState(true);
  const apply = useCallback((result: JsonResult<JourneyStats>) => {
    if (result.ok) setStats(result.data);
    // Not there (no journey published yet, or a server without journeys): stop asking.
    else if (result.status === 404 || result.status === 405) setAvailable(false);
  }, []);
  const url = `/api/v1/campaigns/${campaignId}/journey/stats`;
  const load = useCallback(async () => apply(await requestJson<JourneyStats>(url)), [apply, url]);
  // Deploying turns the counts on: ask again even when an earlier answer was "not there".
  const [wasEnabled, setWasEnabled] = useState(enabled);
  if (wasEnabled !== enabled) {
    setWasEnabled(enabled);
    setAvailable(true);
  }
  useEffect(() => {
    if (!enabled) return;
    let live = true;
    void requestJson<JourneyStats>(url).then((result) => {
      if (live) apply(result);
    });
    return () => {
      live = false;
    };
  }, [enabled, url, apply]);
  useVisibleInterval(load, REFRESH_MS, enabled && available);
  return enabled ? stats : null;
}
