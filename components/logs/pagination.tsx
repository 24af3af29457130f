import { ChevronLeft, ChevronRight } from "lucide-react";
import Link from "next/link";
import { Button } from "@/components/ui/button";

/** Keyset pagination: newer / older pages around the current one, and back to the newest. */
export function LogsPagination({ newerHref, olderHref, newestHref }: { newerHref: string | null; olderHref: string | null; newestHref: string | null }) {
  if (!newerHref && !olderHref) return null;
  return (
    <nav aria-label="Pagination" className="flex items-center justify-between gap-2">
      <div>
        {newestHref && (
          <Button asChild variant="ghost" size="sm">
            <Link href={newestHref}>Back to newest</Link>
          </Button>
        )}
      </div>
      <div className="flex gap-2">
        {newerHref ? (
          <Button asChild variant="outline" size="sm">
            <Link href={newerHref}><ChevronLeft aria-hidden />Newer</Link>
          </Button>
        ) : (
          <Button variant="outline" size="sm" disabled><ChevronLeft aria-hidden />Newer</Button>
        )}
        {olderHref ? (
          <Button asChild variant="outline" size="sm">
            <Link href={olderHref}>Older<ChevronRight aria-hidden /></Link>
          </Button>
        ) : (
          <Button variant="outline" size="sm" disabled>Older<ChevronRight aria-hidden /></Button>
        )}
      </div>
    </nav>
  );
}
