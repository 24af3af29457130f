"use client";

import { useSyncExternalStore } from "react";

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ["year", 365 * 24 * 3600],
  ["month", 30 * 24 * 3600],
  ["week", 7 * 24 * 3600],
  ["day", 24 * 3600],
  ["hour", 3600],
  ["minute", 60],
];

const relative = new Intl.RelativeTimeFormat("en", { numeric: "auto" });

/** "just now", "5 minutes ago", "yesterday", "3 months ago". */
export function formatRelativeTime(date: Date, now: number): string {
  const seconds = Math.round((date.getTime() - now) / 1000);
  if (Math.abs(seconds) < 45) return "just now";
  for (const [unit, size] of UNITS) {
    if (Math.abs(seconds) >= size) return relative.format(Math.round(seconds / size), unit);
  }
  return relative.format(Math.round(seconds / 60), "minute");
}

// One shared clock for every relative time on the page, ticking every 30 seconds while in use.
let clock = Date.now();
let timer: ReturnType<typeof setInterval> | undefined;
const listeners = new Set<() => void>();

function subscribeToClock(listener: () => void): () => void {
  listeners.add(listener);
  if (!timer) {
    clock = Date.now();
    timer = setInterval(() => {
      clock = Date.now();
      for (const notify of listeners) notify();
    }, 30_000);
  }
  return () => {
    listeners.delete(listener);
    if (listeners.size === 0) {
      clearInterval(timer);
      timer = undefined;
    }
  };
}

/**
 * The current time: the server's clock for the server render and hydration (so both agree), then
 * the browser's.
 */
export function useNow(serverNow: number): number {
  return useSyncExternalStore(subscribeToClock, () => clock, () => serverNow);
}

const noSubscription = () => () => {};

function useMounted(): boolean {
  return useSyncExternalStore(noSubscription, () => true, () => false);
}

const exactUtc = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "long", timeZone: "UTC" });
const exactLocal = new Intl.DateTimeFormat("en-GB", { dateStyle: "medium", timeStyle: "long" });

/** Relative time with the exact time on hover (UTC until the browser's time zone is known). */
export function RelativeTime({ value, now }: { value: string; now: number }) {
  const mounted = useMounted();
  const date = new Date(value);
  const exact = (mounted ? exactLocal : exactUtc).format(date);
  return (
    <time dateTime={value} title={exact} className="cursor-help underline decoration-dotted decoration-muted-foreground/50 underline-offset-4">
      {formatRelativeTime(date, now)}
    </time>
  );
}
