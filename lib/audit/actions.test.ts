// Every action the code records has a label: the source of lib/ is read for the action strings
// passed to the audit writers, so a new action without a label fails here (and does not typecheck).
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { AUDIT_ACTION_LABELS, AUDIT_ACTIONS, auditActionLabel, CAMPAIGN_AUDIT_ACTIONS } from "./actions";
import { campaignStatuses } from "@/db/schema";

const ROOT = process.cwd();

function sourceFiles(dir: string): string[] {
  return fs.readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const file = `${dir}/${entry.name}`;
    if (entry.isDirectory()) return file.startsWith("lib/testing") ? [] : sourceFiles(file);
    return /\.tsx?$/.test(entry.name) && !/\.test\.tsx?$/.test(entry.name) ? [file] : [];
  });
}

/** Files that write audit rows, and the actions they name. */
function recordedActions(): Map<string, string[]> {
  const found = new Map<string, string[]>();
  for (const file of [...sourceFiles("lib"), ...sourceFiles("app"), "db/demo-workspace.ts"]) {
    const text = fs.readFileSync(path.join(ROOT, file), "utf8");
    if (!/recordAudit|auditRow|auditCampaign|auditTransition|backToDraft|insert into audit_events|keyAudit|recordMemberChange/.test(text)) continue;
    const actions = [
      ...[...text.matchAll(/["'`]((?:api_key|sender|campaign|member|contact|import|template|webhook_endpoint|alerts|workspace|user)\.[a-z_]+)["'`]/g)].map((m) => m[1]!),
      ...[...text.matchAll(/auditCampaign\(\s*\w+,\s*\w+,\s*"([a-z_]+)"/g)].map((m) => `campaign.${m[1]}`),
    ];
    if (actions.length > 0) found.set(file, actions);
  }
  return found;
}

describe("audit actions", () => {
  it("finds the actions the code records", () => {
    const found = recordedActions();
    expect(found.get("lib/api-keys/service.ts")).toContain("api_key.created");
    expect(found.get("lib/bulk/launch.ts")).toContain("campaign.launched");
    expect([...found.values()].flat().length).toBeGreaterThan(30);
  });

  it("labels every action the code records", () => {
    const unlabelled = [...recordedActions()].flatMap(([file, actions]) => actions.filter((a) => !(AUDIT_ACTIONS as string[]).includes(a)).map((a) => `${file}: ${a}`));
    expect(unlabelled, "add the action and its label to lib/audit/actions.ts").toEqual([]);
  });

  it("labels a status change to every campaign status", () => {
    for (const status of campaignStatuses) expect((CAMPAIGN_AUDIT_ACTIONS as readonly string[]).includes(status), status).toBe(true);
    for (const action of CAMPAIGN_AUDIT_ACTIONS) expect(AUDIT_ACTION_LABELS[`campaign.${action}`]).toBeTruthy();
  });

  it("says each action in words, never as its code", () => {
    for (const action of AUDIT_ACTIONS) {
      const label = auditActionLabel(action);
      expect(label).toMatch(/^[A-Z][a-z'’ -]+[a-z]$/i);
      expect(label).not.toContain(".");
      expect(label).not.toContain("_");
    }
    expect(auditActionLabel("campaign.launched")).toBe("Launched a campaign");
    // A row written by a newer version reads as words too.
    expect(auditActionLabel("template.submitted_for_review")).toBe("Template submitted for review");
  });
});
