import fs from "node:fs";
import { expect } from "@playwright/test";

/**
 * The e2e server sends mail with MAIL_TRANSPORT=file into E2E_MAIL_FILE (set in playwright.config.ts):
 * one JSON line per mail. Waits for the newest mail to an address and returns it.
 */
export async function waitForMail(to: string, subject: RegExp): Promise<{ to: string; subject: string; text: string }> {
  const file = process.env.E2E_MAIL_FILE;
  if (!file) throw new Error("E2E_MAIL_FILE is not set: run the tests through playwright.config.ts.");
  let found: { to: string; subject: string; text: string } | undefined;
  await expect(async () => {
    const lines = fs.existsSync(file) ? fs.readFileSync(file, "utf8").trim().split("\n").filter(Boolean) : [];
    found = lines
      .map((line) => JSON.parse(line) as { to: string; subject: string; text: string })
      .filter((mail) => mail.to === to.toLowerCase() && subject.test(mail.subject))
      .at(-1);
    expect(found).toBeDefined();
  }).toPass({ timeout: 15_000 });
  return found!;
}

export function linkIn(text: string): string {
  const match = /https?:\/\/\S+/.exec(text);
  if (!match) throw new Error(`No link in the mail:\n${text}`);
  return match[0];
}
