import { headers } from "next/headers";
import { originFromHeaders } from "./origin";

/** For server components: the origin of the page request being rendered. */
export async function requestOrigin(): Promise<string | undefined> {
  return originFromHeaders(await headers());
}
