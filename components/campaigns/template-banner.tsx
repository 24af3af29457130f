import { Ban } from "lucide-react";
import Link from "next/link";
import type { TemplateBannerData } from "@/lib/templates/review";
import { cn } from "@/lib/utils";

/** Says that WhatsApp paused or disabled the campaign's template, so nothing sends. Renders nothing when `banner` is null. */
export function TemplateBanner({ banner, className }: { banner: TemplateBannerData | null; className?: string }) {
  if (!banner) return null;
  return (
    <div role="alert" aria-labelledby="template-banner-title" className={cn("flex gap-3 rounded-xl border border-destructive/40 bg-destructive/5 px-4 py-3 text-sm", className)}>
      <Ban aria-hidden className="mt-0.5 size-5 shrink-0 text-destructive" />
      <div className="grid min-w-0 gap-1">
        <p id="template-banner-title" className="font-medium text-destructive">
          {banner.title}
        </p>
        <p className="break-words text-foreground">
          {banner.message} Launches and trigger requests are refused until then.
        </p>
        <Link href="/templates" className="w-fit font-medium text-primary underline underline-offset-4">
          See templates
        </Link>
      </div>
    </div>
  );
}
