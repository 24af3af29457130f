import Link from "next/link";
import { Badge } from "@/components/ui/badge";
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from "@/components/ui/card";
import { LocalTime } from "@/components/ui/local-time";
import type { NoticeView } from "@/lib/alerts/schemas";

/** The latest alerts, open and closed, with how the owners were told. */
export function NoticeHistory({ notices }: { notices: NoticeView[] }) {
  return (
    <Card>
      <CardHeader>
        <CardTitle>Recent alerts</CardTitle>
        <CardDescription>The last 50, newest first.</CardDescription>
      </CardHeader>
      <CardContent>
        {notices.length === 0 ? (
          <p className="text-sm text-muted-foreground">No alerts yet.</p>
        ) : (
          <ul className="grid gap-3" aria-label="Recent alerts">
            {notices.map((notice) => (
              <li key={notice.id} className="grid gap-1 border-b pb-3 text-sm last:border-0 last:pb-0">
                <div className="flex flex-wrap items-center gap-2">
                  {notice.resolvedAt ? <Badge variant="secondary">Closed</Badge> : <Badge variant="destructive">Open</Badge>}
                  <Link href={notice.href} className="font-medium hover:underline">
                    {notice.title}
                  </Link>
                </div>
                <p className="text-muted-foreground">{notice.detail}</p>
                <p className="text-xs text-muted-foreground">
                  Opened <LocalTime iso={notice.createdAt} />
                  {notice.resolvedAt && (
                    <>
                      {" "}
                      · closed <LocalTime iso={notice.resolvedAt} />
                    </>
                  )}
                  {notice.emailedAt && " · emailed"}
                  {notice.slackPostedAt && " · posted to Slack"}
                  {notice.notifyError && <span className="text-destructive"> · {notice.notifyError}</span>}
                </p>
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}
