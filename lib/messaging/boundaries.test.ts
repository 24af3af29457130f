// Messaging is below bulk, alerts and event webhooks: what a dispatch pass needs from them is handed
// in by the composition root (lib/engine), and their background work is their own job in the
// registry (lib/jobs). This reads every import of messaging's code (tests compose the engine and are
// left out) and fails on one that reaches them.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "../..");
const FOLDER = path.join(ROOT, "lib/messaging");
const FORBIDDEN = ["lib/bulk", "lib/alerts", "lib/event-webhooks", "lib/engine"];

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(full);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [full] : [];
  });
}

/** Every module a file imports (static, dynamic, re-exports, type-only too), as a path from the repository root. */
export function importsOf(file: string): string[] {
  const text = fs.readFileSync(file, "utf8");
  const specifiers = [...text.matchAll(/(?:\bfrom\s*|\bimport\s*\(\s*|\bimport\s+)["']([^"']+)["']/g)].map((m) => m[1]!);
  return specifiers.map((spec) => {
    if (spec.startsWith("@/")) return spec.slice(2);
    if (spec.startsWith(".")) return path.relative(ROOT, path.resolve(path.dirname(file), spec));
    return spec;
  });
}

describe("lib/messaging's imports", () => {
  it("never reach bulk, alerts, event webhooks or the engine", () => {
    const offending = sourceFiles(FOLDER).flatMap((file) =>
      importsOf(file)
        .filter((target) => FORBIDDEN.some((folder) => target === folder || target.startsWith(`${folder}/`)))
        .map((target) => `${path.relative(ROOT, file)} → ${target}`),
    );
    expect(offending).toEqual([]);
  });

  it("finds such an import when there is one (static, dynamic, relative)", () => {
    const dir = fs.mkdtempSync(path.join(FOLDER, ".boundary-"));
    try {
      const file = path.join(dir, "probe.ts");
      fs.writeFileSync(file, 'import { a } from "@/lib/bulk/x";\nexport { b } from "../../alerts/y";\nconst c = await import("@/lib/event-webhooks/z");\n');
      expect(importsOf(file)).toEqual(["lib/bulk/x", "lib/alerts/y", "lib/event-webhooks/z"]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
