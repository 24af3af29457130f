// Messaging is below bulk, alerts and event webhooks: what a dispatch pass needs from them is handed
// in by the composition root (lib/engine), and their background work is their own job in the
// registry (lib/jobs). This reads every import of messaging's code (tests compose the engine and are
// left out) and fails on one that reaches them.
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { importsOf, sourceFiles } from "@/lib/testing/imports";

const ROOT = path.resolve(import.meta.dirname, "../..");
const FOLDER = path.join(ROOT, "lib/messaging");
const FORBIDDEN = ["lib/bulk", "lib/alerts", "lib/event-webhooks", "lib/engine"];

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
