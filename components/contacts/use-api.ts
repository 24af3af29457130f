"use client";

import * as React from "react";
import { requestJson, type ClientProblem } from "@/lib/http/client";

interface Loaded<T> {
  url: string;
  version: number;
  data?: T;
  problem?: ClientProblem;
}

/**
 * GETs a same-origin /api/v1 URL whenever it (or `reload()`) changes. `loading` is true until the
 * response for the current URL arrives; the previous data stays visible meanwhile.
 */
export function useApi<T>(url: string | null) {
  const [version, setVersion] = React.useState(0);
  const [state, setState] = React.useState<Loaded<T> | null>(null);

  React.useEffect(() => {
    if (!url) return;
    const controller = new AbortController();
    requestJson<T>(url, { signal: controller.signal }).then((result) => {
      if (controller.signal.aborted) return;
      setState(result.ok ? { url, version, data: result.data } : { url, version, problem: result.problem });
    });
    return () => controller.abort();
  }, [url, version]);

  const reload = React.useCallback(() => setVersion((v) => v + 1), []);
  const current = state && state.url === url && state.version === version;
  return {
    data: state?.data,
    problem: current ? state.problem : undefined,
    loading: Boolean(url) && !current,
    reload,
  };
}
