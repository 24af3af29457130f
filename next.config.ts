import type { NextConfig } from "next";

// The Content-Security-Policy (with a per-request nonce) and HSTS are set in proxy.ts.
const securityHeaders = [
  { key: "X-Frame-Options", value: "DENY" },
  { key: "X-Content-Type-Options", value: "nosniff" },
  { key: "Referrer-Policy", value: "strict-origin-when-cross-origin" },
  { key: "Permissions-Policy", value: "camera=(), microphone=(), geolocation=()" },
];

const nextConfig: NextConfig = {
  poweredByHeader: false,
  // `npm run dev` opened as http://127.0.0.1:3000 (as the end-to-end tests do) instead of localhost:
  // Next.js would block its dev resources there, and the pages would never hydrate.
  allowedDevOrigins: ["127.0.0.1"],
  // A separate build folder lets several builds (CI, e2e runs) share one checkout.
  distDir: process.env.NEXT_DIST_DIR || ".next",
  // `<distDir>/standalone/server.js` with only the files the server needs (the Docker image runs
  // it); `next start` still serves the same build.
  output: "standalone",
  // Read at run time from a path built on process.cwd() (the embedded database migrates itself on
  // start): named here rather than left to tracing.
  outputFileTracingIncludes: { "/*": ["./db/migrations/**/*"] },
  // `npm run typecheck` (tsc) is the type gate, run by CI before the build; not doing it twice keeps builds fast.
  typescript: { ignoreBuildErrors: true },
  serverExternalPackages: ["@electric-sql/pglite", "postgres"],
  // Next.js buffers the body of every request proxy.ts matches (pages and /api/auth/*), 10 MB by
  // default; none of them takes more than a small form.
  experimental: {
    proxyClientMaxBodySize: "1mb",
    // Turbopack keeps its compiler artifacts on disk, which speeds up the next build of this checkout;
    // a build that has no next one (CI on a fresh clone) sets NEXT_BUILD_CACHE=off and skips writing them
    // (29 s of a CI build).
    turbopackFileSystemCacheForBuild: process.env.NEXT_BUILD_CACHE !== "off",
  },
  async headers() {
    return [{ source: "/:path*", headers: securityHeaders }];
  },
};

export default nextConfig;
