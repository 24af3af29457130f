// Public URLs (Meta's callback URL, trigger and webhook URLs, links in mail and docs) come from one
// function, appUrl: APP_URL, else the origin the request came in on.
import { readdirSync, readFileSync, statSync } from "node:fs";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { apiUrl, appUrl, resetEnvCache } from "@/lib/env";
import { originOfRequest } from "./origin";

const ROOT = path.resolve(import.meta.dirname, "../..");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return sourceFiles(file);
    return /\.tsx?$/.test(name) && !/\.test\.tsx?$/.test(name) ? [file] : [];
  });
}

afterEach(() => {
  delete process.env.APP_URL;
  resetEnvCache();
});

describe("public URLs", () => {
  it("come from APP_URL when it is set, whatever the request says", () => {
    process.env.APP_URL = "https://send.example.com/";
    resetEnvCache();
    expect(appUrl("http://127.0.0.1:4250")).toBe("https://send.example.com");
    expect(apiUrl("http://127.0.0.1:4250")).toBe("https://send.example.com");
  });

  it("else from the origin the request came in on, a reverse proxy's forwarded host and protocol first", () => {
    const direct = new Request("http://127.0.0.1:4250/api/v1/campaigns/cmp_1");
    expect(appUrl(originOfRequest(direct))).toBe("http://127.0.0.1:4250");
    const proxied = new Request("http://10.0.0.5:3000/api/v1/campaigns/cmp_1", {
      headers: { "x-forwarded-host": "send.example.com", "x-forwarded-proto": "https" },
    });
    expect(`${appUrl(originOfRequest(proxied))}/api/webhooks/whatsapp`).toBe("https://send.example.com/api/webhooks/whatsapp");
  });

  it("else, outside any request, this process's own port", () => {
    const port = process.env.PORT;
    process.env.PORT = "4250";
    try {
      expect(appUrl(undefined)).toBe("http://localhost:4250");
    } finally {
      if (port === undefined) delete process.env.PORT;
      else process.env.PORT = port;
    }
  });

  it("are built nowhere else: no hard-coded localhost origin, no request origin read around appUrl", () => {
    const offenders: string[] = [];
    for (const dir of ["app", "lib", "components"]) {
      for (const file of sourceFiles(path.join(ROOT, dir))) {
        const relative = path.relative(ROOT, file);
        const text = readFileSync(file, "utf8");
        if (/localhost:3000/.test(text) && relative !== "lib/env.ts") offenders.push(`${relative}: localhost:3000`);
        // lib/routing/route.ts compares the request's origin for CSRF; it builds no URL.
        if (/new URL\(request\.url\)\.origin/.test(text) && !["lib/http/origin.ts", "lib/routing/route.ts"].includes(relative)) {
          offenders.push(`${relative}: new URL(request.url).origin (use originOfRequest)`);
        }
      }
    }
    expect(offenders).toEqual([]);
  });
});
