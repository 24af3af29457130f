import { notFound } from "next/navigation";
import { ApiError } from "./errors";
import { isPathParamShape } from "./path-params";

/** For pages: a service's 404 (missing, or another workspace's) renders the not-found page. */
export function orNotFound<T>(pending: Promise<T>): Promise<T> {
  return pending.catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) notFound();
    throw error;
  });
}

/** For pages: a dynamic segment no resource can have (see path-params.ts) renders the not-found page before any query. */
export async function pageParams<P extends Record<string, string>>(params: Promise<P>): Promise<P> {
  const resolved = await params;
  if (Object.entries(resolved).some(([name, value]) => !isPathParamShape(name, value))) notFound();
  return resolved;
}
