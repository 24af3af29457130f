import { TriangleAlert } from "lucide-react";
import Link from "next/link";
import { LocalTime } from "@/components/ui/local-time";
import type { SenderBannerData } from "@/lib/senders/banner";
import { cn } from "@/lib/utils";

const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

/**
 * Warns that the workspace's sender is failing (its last sends failed for a reason of the sender),
 * with what happens to the waiting messages and a link to fix it. Renders nothing when `banner` is null.
 */
export function SenderBanner({
  banner,
  className,
  fixLink = true,
}: {
  banner: SenderBannerData | null;
  className?: string;
  /** Off on the settings page itself. */
  fixLink?: boolean;
}) {
  if (!banner) return null;
  const through = banner.provider === "whatsapp" ? `your WhatsApp number “${banner.senderName}”` : `the sandbox “${banner.senderName}”`;
  return (
    <div
      role="alert"
      aria-labelledby="sender-banner-title"
      className={cn("flex gap-3 rounded-xl border border-destructive/40 bg-destructive/5 px-4 py-3 text-sm", className)}
    >
      <TriangleAlert aria-hidden className="mt-0.5 size-5 shrink-0 text-destructive" />
      <div className="grid min-w-0 gap-1">
        <p id="sender-banner-title" className="font-medium text-destructive">
          {banner.title}
        </p>
        <p className="break-words text-foreground">
          The last sends through {through} failed
          {banner.since && (
            <>
              {" "}
              (since <LocalTime iso={banner.since} />)
            </>
          )}
          {banner.reason ? <>: {banner.reason}</> : "."}
          {banner.code && <span className="text-muted-foreground"> ({banner.code})</span>}
        </p>
        {banner.pendingMessages > 0 && (
          <p className="text-muted-foreground">
            {plural(banner.pendingMessages, "message")} {banner.pendingMessages === 1 ? "is" : "are"} waiting: they go out once the sender works
            again, and fail if you switch to another sender or number.
          </p>
        )}
        {banner.otherFailingSenders > 0 && (
          <p className="text-muted-foreground">
            {plural(banner.otherFailingSenders, "other sender")} of the workspace {banner.otherFailingSenders === 1 ? "is" : "are"} failing too: see Settings → WhatsApp.
          </p>
        )}
        {fixLink && (
          <p>
            <Link href={banner.href} className="font-medium text-primary underline underline-offset-4">
              Fix in Settings → WhatsApp
            </Link>
          </p>
        )}
      </div>
    </div>
  );
}
