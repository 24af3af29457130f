"use client";

import { BellRing, X } from "lucide-react";
import Link from "next/link";
import { useCallback, useState } from "react";
import { Button } from "@/components/ui/button";
import { toast } from "@/components/ui/toaster";
import type { NoticeView } from "@/lib/alerts/schemas";
import { requestJson } from "@/lib/http/client";
import { useVisibleInterval } from "@/components/ui/use-visible-interval";

const LINK_TEXT: Record<NoticeView["kind"], string> = {
  campaign_failure_rate: "See the failures",
  sender_failing: "Open WhatsApp settings",
  webhook_endpoint_disabled: "Open the endpoint",
};

/** How often the banner asks for alerts opened or closed since the page was rendered. */
const REFRESH_MS = 30_000;

/**
 * The open alerts, on every page for the workspace's owners, until dismissed or resolved. The
 * dashboard layout survives navigation, so the banner refreshes itself while the tab is visible.
 */
export function NoticesBanner({ initialNotices, enabled = true }: { initialNotices: NoticeView[]; enabled?: boolean }) {
  const [notices, setNotices] = useState(initialNotices);

  const refresh = useCallback(async () => {
    const result = await requestJson<{ data: NoticeView[] }>("/api/alerts/notices");
    if (result.ok) setNotices(result.data.data);
  }, []);
  useVisibleInterval(refresh, REFRESH_MS, enabled);

  if (notices.length === 0) return null;

  async function dismiss(notice: NoticeView) {
    const result = await requestJson<NoticeView>(`/api/alerts/notices/${encodeURIComponent(notice.id)}/dismiss`, { method: "POST" });
    if (!result.ok && result.status !== 404) {
      toast.error(result.problem.detail);
      return;
    }
    setNotices((current) => current.filter((n) => n.id !== notice.id));
  }

  return (
    <section aria-label="Alerts" className="mb-6 grid gap-2">
      {notices.map((notice) => (
        <div
          key={notice.id}
          role="alert"
          className="flex items-start gap-3 rounded-lg border border-destructive/30 bg-destructive/5 px-4 py-3 text-sm"
        >
          <BellRing aria-hidden className="mt-0.5 size-4 shrink-0 text-destructive" />
          <div className="min-w-0 flex-1">
            <p className="font-medium">{notice.title}</p>
            <p className="text-muted-foreground">
              {notice.detail}{" "}
              <Link href={notice.href} className="font-medium text-foreground underline underline-offset-2">
                {LINK_TEXT[notice.kind]}
              </Link>
            </p>
          </div>
          <Button variant="ghost" size="icon" className="-my-1 shrink-0" aria-label={`Dismiss alert: ${notice.title}`} onClick={() => dismiss(notice)}>
            <X aria-hidden />
          </Button>
        </div>
      ))}
    </section>
  );
}
