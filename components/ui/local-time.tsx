"use client";

import * as React from "react";

// Times render in UTC on the server and in the first (hydrating) client render, so the markup
// matches; right after, the browser switches them to the viewer's own time zone.
const noSubscription = () => () => {};

/** False while server-rendering and hydrating, true once the browser's time zone can be used. */
export function useViewerClock(): boolean {
  return React.useSyncExternalStore(noSubscription, () => true, () => false);
}

const shortParts: Intl.DateTimeFormatOptions = {
  month: "short",
  day: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  second: "2-digit",
  hourCycle: "h23",
};

const utcShort = new Intl.DateTimeFormat("en-US", { ...shortParts, timeZone: "UTC" });
const utcShortWithYear = new Intl.DateTimeFormat("en-US", { ...shortParts, year: "numeric", timeZone: "UTC" });
let localShort: Intl.DateTimeFormat | null = null;
let localShortWithYear: Intl.DateTimeFormat | null = null;
let localFull: Intl.DateTimeFormat | null = null;
let localZone: Intl.DateTimeFormat | null = null;

/** `Nov 21, 23:15:03` in the viewer's zone (or UTC before hydration); the year only when it is not this year's. */
export function formatShortTime(iso: string, local: boolean): string {
  const date = new Date(iso);
  const thisYear = date.getUTCFullYear() === new Date().getUTCFullYear();
  if (!local) return (thisYear ? utcShort : utcShortWithYear).format(date);
  localShort ??= new Intl.DateTimeFormat("en-US", shortParts);
  localShortWithYear ??= new Intl.DateTimeFormat("en-US", { ...shortParts, year: "numeric" });
  return (thisYear ? localShort : localShortWithYear).format(date);
}

/** `Saturday, November 21, 2026 at 23:15:03 GMT+1 (2026-11-21T22:15:03.000Z)`: the tooltip. */
export function formatFullTime(iso: string, local: boolean): string {
  if (!local) return `${utcShortWithYear.format(new Date(iso))} UTC (${iso})`;
  localFull ??= new Intl.DateTimeFormat("en-US", { dateStyle: "full", timeStyle: "long", hourCycle: "h23" });
  return `${localFull.format(new Date(iso))} (${iso})`;
}

/** The viewer's zone as a short name (`GMT+1`, `PST`), or `UTC` before hydration. */
export function TimeZoneName() {
  const local = useViewerClock();
  if (!local) return <>UTC</>;
  localZone ??= new Intl.DateTimeFormat("en-US", { timeZoneName: "short" });
  return <>{localZone.formatToParts(new Date()).find((part) => part.type === "timeZoneName")?.value ?? "local time"}</>;
}

/** A timestamp in the viewer's time zone, with the full date, zone and UTC instant as its tooltip. */
export function LocalTime({ iso, className }: { iso: string; className?: string }) {
  const local = useViewerClock();
  return (
    <time dateTime={iso} title={formatFullTime(iso, local)} className={className}>
      {formatShortTime(iso, local)}
    </time>
  );
}
