import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

const ROOT = path.resolve(import.meta.dirname, "..");

function sourceFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
    const rel = path.join(dir, entry.name);
    if (entry.isDirectory()) return sourceFiles(rel);
    return entry.name.endsWith(".tsx") ? [rel] : [];
  });
}

/**
 * A form submitted before the page's script has run (slow network, blocked script) is sent by the
 * browser itself, as its `method` says: without one it is a GET, and the password ends up in the
 * URL, the server's log and the browser's history. Every form holding a password input posts.
 */
describe("forms with a password input", () => {
  const files = [...sourceFiles("components"), ...sourceFiles("app")].filter((file) => /type="password"/.test(readFileSync(path.join(ROOT, file), "utf8")));

  it("are found (sign-in, sign-up, reset password, sender settings)", () => {
    expect(files.map((file) => path.basename(file)).sort()).toEqual(expect.arrayContaining(["reset-password-form.tsx", "sender-settings-form.tsx", "sign-in-form.tsx", "sign-up-form.tsx"]));
  });

  it.each(files)("%s: every <form> has method=\"post\"", (file) => {
    const forms = readFileSync(path.join(ROOT, file), "utf8").match(/<form\b[^>]*>/g) ?? [];
    expect(forms.length).toBeGreaterThan(0);
    for (const form of forms) expect(form).toMatch(/\bmethod="post"/);
  });
});
