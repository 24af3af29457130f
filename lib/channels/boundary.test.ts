// The channel boundary: nothing outside lib/channels knows a provider's wire format. Code outside
// imports only the registry (`@/lib/channels`) and the contract (`@/lib/channels/types`); tests may
// also use a channel's testing helpers (`@/lib/channels/<name>/testing`). Production code outside
// never names the Graph API host, its error class or Meta's error codes, and calls WhatsApp's message
// id (wamid) by the contract's name, `providerMessageId`: the word stays only as the public API's
// field and the database column (`messages.wamid`), both spelt exactly `wamid`.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { GRAPH_ERROR_RULES } from "./whatsapp/errors";

const ROOT = path.resolve(import.meta.dirname, "../..");
const SCANNED = ["lib", "app", "components"];
const CHANNELS_DIR = path.join(ROOT, "lib/channels");

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === "node_modules" ? [] : sourceFiles(full);
    return /\.(ts|tsx|mts|js|mjs)$/.test(entry.name) && !entry.name.endsWith(".d.ts") ? [full] : [];
  });
}

const outside = SCANNED.flatMap((dir) => sourceFiles(path.join(ROOT, dir))).filter((file) => !file.startsWith(CHANNELS_DIR + path.sep));
const isTestCode = (file: string) => /\.test\.tsx?$/.test(file) || file.startsWith(path.join(ROOT, "lib/testing") + path.sep);
const relative = (file: string) => path.relative(ROOT, file);

/** Every module specifier a file imports or re-exports (static and dynamic). */
function specifiers(source: string): string[] {
  const found: string[] = [];
  for (const match of source.matchAll(/(?:import|export)\s[^;]*?from\s+["']([^"']+)["']|import\(\s*["']([^"']+)["']\s*\)|import\s+["']([^"']+)["']/g)) {
    found.push((match[1] ?? match[2] ?? match[3])!);
  }
  return found;
}

/** The import as a path from the repository root ("lib/channels/whatsapp/graph"), or null for a package. */
function target(file: string, specifier: string): string | null {
  if (specifier.startsWith("@/")) return specifier.slice(2);
  if (specifier.startsWith(".")) return path.relative(ROOT, path.resolve(path.dirname(file), specifier));
  return null;
}

const ALLOWED = new Set(["lib/channels", "lib/channels/index", "lib/channels/types"]);
const TEST_HELPERS = /^lib\/channels\/[a-z-]+\/testing(\/index)?$/;

/** The source without its comments (strings are kept: a code in a string is still knowledge of it). */
function withoutComments(source: string): string {
  return source.replace(/("(?:\\.|[^"\\\n])*"|'(?:\\.|[^'\\\n])*'|`(?:\\.|[^`\\])*`)|\/\/[^\n]*|\/\*[\s\S]*?\*\//g, (match, text: string | undefined) => text ?? "");
}

/** The public API's documentation shows provider codes and field names (wamid) as example data of its responses. */
const API_DOCUMENTATION = path.join(ROOT, "lib/openapi") + path.sep;

/**
 * An identifier made from the word (`unrecordedWamid`, `wamids`, `SANDBOX_WAMID_PREFIX`) or a variable
 * named `wamid`. A bare `wamid` otherwise is the API field or the column (`row.wamid`, `m.wamid`,
 * `{ wamid: … }`) and is allowed.
 */
function wamidIdentifier(code: string): string | null {
  for (const match of code.matchAll(/[\w$]*wamid[\w$]*/gi)) if (match[0] !== "wamid") return match[0];
  return /\b(?:const|let|var|function)\s+wamid\b/.exec(code)?.[0] ?? null;
}

export function boundaryViolations(files: { file: string; source: string }[]): string[] {
  // Meta's codes of four digits or more: shorter ones (0, 100, 190 …) are too common to police.
  const codes = Object.keys(GRAPH_ERROR_RULES).filter((code) => code.length >= 4);
  const codePattern = new RegExp(`(?<![\\w+.-])(${codes.join("|")})(?![\\w.-])`);
  const violations: string[] = [];
  for (const { file, source } of files) {
    const test = isTestCode(file);
    for (const specifier of specifiers(source)) {
      const to = target(file, specifier)?.split(path.sep).join("/");
      if (!to || !(to === "lib/channels" || to.startsWith("lib/channels/"))) continue;
      if (ALLOWED.has(to) || (test && TEST_HELPERS.test(to))) continue;
      violations.push(`${relative(file)} imports ${specifier}: import @/lib/channels or @/lib/channels/types instead`);
    }
    if (test) continue;
    if (/graph\.facebook\.com/.test(source)) violations.push(`${relative(file)} names the Graph API host`);
    if (/\bGraphApiError\b/.test(source)) violations.push(`${relative(file)} knows GraphApiError`);
    const code = file.startsWith(API_DOCUMENTATION) ? null : codePattern.exec(withoutComments(source));
    if (code) violations.push(`${relative(file)} names Meta error code ${code[1]}`);
    const wamid = file.startsWith(API_DOCUMENTATION) ? null : wamidIdentifier(withoutComments(source));
    if (wamid) violations.push(`${relative(file)} names the provider's message id "${wamid}": call it providerMessageId`);
  }
  return violations;
}

describe("the channel boundary", () => {
  it("keeps Graph API shapes, errors and codes inside lib/channels", () => {
    const files = outside.map((file) => ({ file, source: readFileSync(file, "utf8") }));
    expect(files.length).toBeGreaterThan(100);
    expect(boundaryViolations(files)).toEqual([]);
  });

  it("catches a file that reaches into a channel or knows Meta's codes", () => {
    const file = path.join(ROOT, "lib/messaging/example.ts");
    const test = path.join(ROOT, "lib/messaging/example.test.ts");
    expect(
      boundaryViolations([
        { file, source: 'import { GraphApiError } from "@/lib/channels/whatsapp/graph";' },
        { file, source: 'import { getChannel } from "../channels/whatsapp";' },
        { file, source: 'const url = "https://graph.facebook.com/v23.0";' },
        { file, source: "if (code === 131026) retry();" },
        { file, source: 'const code = "130429";' },
        { file, source: "// Meta answers 130429 when the number sends too fast.\nconst url = `https://example.com`; /* 131056 */" },
        { file: test, source: 'import { fakeGraphForFile } from "@/lib/channels/whatsapp/testing";\nconst code = "131026";' },
        { file: test, source: 'import { classifyWhatsAppError } from "@/lib/channels/whatsapp/errors";' },
        { file, source: 'import { getChannel } from "@/lib/channels";\nimport type { Channel } from "@/lib/channels/types";\nconst sandbox = "+447700131026";' },
      ]),
    ).toEqual([
      "lib/messaging/example.ts imports @/lib/channels/whatsapp/graph: import @/lib/channels or @/lib/channels/types instead",
      "lib/messaging/example.ts knows GraphApiError",
      "lib/messaging/example.ts imports ../channels/whatsapp: import @/lib/channels or @/lib/channels/types instead",
      "lib/messaging/example.ts names the Graph API host",
      "lib/messaging/example.ts names Meta error code 131026",
      "lib/messaging/example.ts names Meta error code 130429",
      "lib/messaging/example.test.ts imports @/lib/channels/whatsapp/errors: import @/lib/channels or @/lib/channels/types instead",
    ]);
  });

  it("catches internal names made from wamid, and allows the API field and the column", () => {
    const file = path.join(ROOT, "lib/messaging/example.ts");
    const test = path.join(ROOT, "lib/messaging/example.test.ts");
    const docs = path.join(ROOT, "lib/openapi/example.ts");
    expect(
      boundaryViolations([
        { file, source: "const writtenWamids: string[] = [];" },
        { file, source: "export function unrecordedWamid(id: string) {}" },
        { file, source: "const wamid = outcome.providerMessageId;" },
        { file, source: 'import { SANDBOX_WAMID_PREFIX } from "@/lib/channels";' },
        { file, source: "return { wamid: row.providerMessageId, id: row.id };" },
        { file, source: "const row = { id: message.id }; if (message.wamid) send(row.wamid);" },
        { file, source: "const query = sql`update messages as m set wamid = v.wamid where m.wamid like ${'wamid.SANDBOX.'}`;" },
        { file, source: "// the wamids and unrecordedWamid of an earlier version\nconst ids = [];" },
        { file: test, source: 'const wamid = "wamid.TEST1"; const wamids = [wamid];' },
        { file: docs, source: 'const description = "Statuses name wamids.";' },
      ]),
    ).toEqual([
      'lib/messaging/example.ts names the provider\'s message id "writtenWamids": call it providerMessageId',
      'lib/messaging/example.ts names the provider\'s message id "unrecordedWamid": call it providerMessageId',
      'lib/messaging/example.ts names the provider\'s message id "const wamid": call it providerMessageId',
      'lib/messaging/example.ts names the provider\'s message id "SANDBOX_WAMID_PREFIX": call it providerMessageId',
    ]);
  });
});
