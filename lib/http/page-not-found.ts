import { notFound } from "next/navigation";
import { ApiError } from "./errors";

/** For pages: a service's 404 (missing, or another workspace's) renders the not-found page. */
export function orNotFound<T>(pending: Promise<T>): Promise<T> {
  return pending.catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 404) notFound();
    throw error;
  });
}
