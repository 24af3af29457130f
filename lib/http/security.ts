import { KIB } from "./body";
import { ApiError } from "./errors";

/**
 * next-auth reads whole request bodies before looking at them; sign-in and sign-out forms are a
 * few hundred bytes. Checked in proxy.ts, before any route code runs.
 */
export const AUTH_BODY_LIMIT_BYTES = 16 * KIB;

/**
 * Why a request to /api/auth/* is refused before it reaches next-auth, or null. A body must
 * declare its length: proxy.ts cannot count a streamed body without reading it, and browsers
 * always send Content-Length for a form or fetch body, so an unknown length is refused (411).
 */
export function authBodyRefusal(request: Request): ApiError | null {
  if (request.method === "GET" || request.method === "HEAD" || request.method === "OPTIONS") return null;
  const declared = request.headers.get("content-length");
  if (declared === null) {
    if (!request.body && !request.headers.has("transfer-encoding")) return null;
    return new ApiError("length_required", "Send the request with a Content-Length header.");
  }
  const length = /^\d{1,15}$/.test(declared.trim()) ? Number(declared) : Number.NaN;
  if (!Number.isFinite(length)) return new ApiError("bad_request", "The Content-Length header is not a number.");
  if (length > AUTH_BODY_LIMIT_BYTES) {
    return new ApiError("payload_too_large", `The request body exceeds the limit of ${AUTH_BODY_LIMIT_BYTES / KIB} KiB.`);
  }
  return null;
}

/** A fresh CSP nonce (128 random bits, base64). */
export function newNonce(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(16));
  return btoa(String.fromCharCode(...bytes));
}

/**
 * The page Content-Security-Policy: scripts only with this response's nonce (Next.js adds it to
 * its own scripts, reading it from this header on the request) or loaded by such a script
 * ('strict-dynamic'); no inline scripts otherwise. React's development build needs eval.
 * Inline styles stay allowed: the UI primitives set style attributes.
 */
export function contentSecurityPolicy(nonce: string, options: { dev: boolean }): string {
  return [
    "default-src 'self'",
    `script-src 'self' 'nonce-${nonce}' 'strict-dynamic'${options.dev ? " 'unsafe-eval'" : ""}`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data: blob:",
    "font-src 'self' data:",
    "connect-src 'self'",
    // The contact import reads CSV files in a papaparse web worker, which papaparse starts from a blob: URL.
    "worker-src 'self' blob:",
    "object-src 'none'",
    "base-uri 'self'",
    "form-action 'self'",
    "frame-ancestors 'none'",
  ].join("; ");
}

export const STRICT_TRANSPORT_SECURITY = "max-age=63072000; includeSubDomains";

/**
 * Whether the browser reached us over https: the request itself, the protocol the reverse proxy
 * reports, or an https APP_URL. (A browser ignores HSTS received over plain http, so a forged
 * X-Forwarded-Proto cannot switch anything on.)
 */
export function servedOverHttps(request: Request, appUrl: string | undefined = process.env.APP_URL): boolean {
  if (new URL(request.url).protocol === "https:") return true;
  const forwarded = request.headers.get("x-forwarded-proto")?.split(",")[0]?.trim().toLowerCase();
  if (forwarded === "https") return true;
  return Boolean(appUrl?.toLowerCase().startsWith("https://"));
}
