import { NextResponse, type NextFetchEvent, type NextRequest } from "next/server";
import { withAuth, type NextRequestWithAuth } from "next-auth/middleware";
import { prepareAuthEnvironment } from "@/lib/auth/environment";
import { isDecodablePath, unknownResource } from "@/lib/http/path-params";
import { problemResponse } from "@/lib/http/problem";
import { authBodyRefusal, contentSecurityPolicy, newNonce, servedOverHttps, STRICT_TRANSPORT_SECURITY } from "@/lib/http/security";

prepareAuthEnvironment();

const SIGNED_IN_ONLY = /^\/(campaigns|contacts|logs|settings)(\/|$)/;

/** A path no page has: rendered as the app's not-found page (404). */
const NO_SUCH_PAGE = "/_no-such-page";

/** Every page: a per-request nonce for the Content-Security-Policy, and HSTS over https. */
function pageResponse(request: NextRequest, { notFound = false }: { notFound?: boolean } = {}): NextResponse {
  const nonce = newNonce();
  const policy = contentSecurityPolicy(nonce, { dev: process.env.NODE_ENV === "development" });
  const requestHeaders = new Headers(request.headers);
  // Next.js takes the nonce for its own scripts from the request's CSP header while rendering.
  requestHeaders.set("Content-Security-Policy", policy);
  requestHeaders.set("x-nonce", nonce);
  const response = notFound
    ? NextResponse.rewrite(new URL(NO_SUCH_PAGE, request.url), { request: { headers: requestHeaders } })
    : NextResponse.next({ request: { headers: requestHeaders } });
  response.headers.set("Content-Security-Policy", policy);
  return withTransportSecurity(request, response);
}

function withTransportSecurity<R extends Response>(request: Request, response: R): R {
  if (servedOverHttps(request)) response.headers.set("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
  return response;
}

// A fast redirect for signed-out visitors; every page and route still checks the session itself.
const signedInOnly = withAuth((request) => pageResponse(request), { pages: { signIn: "/sign-in" } });

export default async function proxy(request: NextRequest, event: NextFetchEvent): Promise<Response> {
  const { pathname } = request.nextUrl;
  // Next.js would fail to decode such a path into route params and answer a bare 500.
  if (!isDecodablePath(pathname)) {
    const api = pathname.startsWith("/api/") || pathname.startsWith("/outbound/");
    return api ? withTransportSecurity(request, problemResponse(unknownResource())) : pageResponse(request, { notFound: true });
  }
  if (pathname.startsWith("/api/")) {
    const refusal = authBodyRefusal(request);
    return refusal ? withTransportSecurity(request, problemResponse(refusal)) : NextResponse.next();
  }
  if (SIGNED_IN_ONLY.test(pathname)) {
    const response = await signedInOnly(request as NextRequestWithAuth, event);
    return response ? withTransportSecurity(request, response) : pageResponse(request);
  }
  return pageResponse(request);
}

export const config = {
  matcher: [
    // Only next-auth's routes among the API: other routes cap their own bodies while streaming.
    "/api/auth/:path*",
    {
      source: "/((?!api/|_next/static|_next/image|outbound/|favicon.ico|icon.svg|apple-icon.png|manifest.webmanifest).*)",
      missing: [
        { type: "header", key: "next-router-prefetch" },
        { type: "header", key: "purpose", value: "prefetch" },
      ],
    },
    // Any path (API routes and the trigger endpoint included) holding an escape that may not decode
    // to text: a control character, a byte of a multi-byte character, or a malformed escape.
    "/:path(.*%(?:[01][0-9a-fA-F]|7[fF]|[89a-fA-F]|(?![0-9a-fA-F]{2})).*)",
  ],
};
