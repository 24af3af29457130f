"use client";

import { useIsClient } from "@/components/ui/use-is-client";
import { formatInstant } from "./zoned-time";

/** An instant in the viewer's own time zone (known only in the browser; UTC until then). */
export function LocalTime({ value, zone }: { value: string; zone?: string }) {
  const client = useIsClient();
  return <time dateTime={value}>{formatInstant(value, zone ?? (client ? undefined : "UTC"))}</time>;
}
