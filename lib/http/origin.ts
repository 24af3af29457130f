/** The origin the client used, honouring a reverse proxy's forwarded host and protocol. */
export function originFromHeaders(headers: { get(name: string): string | null }, fallbackProtocol = "http"): string | undefined {
  const host = headers.get("x-forwarded-host") ?? headers.get("host");
  if (!host) return undefined;
  return `${headers.get("x-forwarded-proto") ?? fallbackProtocol}://${host}`;
}

/** For route handlers: the origin the client used for this request (see `appUrl`). */
export function originOfRequest(request: Request): string {
  const url = new URL(request.url);
  return originFromHeaders(request.headers, url.protocol.replace(":", "")) ?? url.origin;
}
