"use client";

import { useEffect, useState } from "react";

/** `value` once it has stopped changing for `delayMs` (compared by JSON, so fresh objects are fine). */
export function useDebounced<T>(value: T, delayMs: number): T {
  const key = JSON.stringify(value);
  const [settled, setSettled] = useState({ key, value });
  useEffect(() => {
    if (key === settled.key) return;
    const timer = setTimeout(() => setSettled({ key, value }), delayMs);
    return () => clearTimeout(timer);
  }, [key, value, delayMs, settled.key]);
  return settled.value;
}
