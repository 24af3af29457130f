import { expect, type Page } from "@playwright/test";

let counter = 0;

export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.test`;
}

export const TEST_PASSWORD = "correct horse battery";

/** Creates a fresh account through the sign-up form and waits for the dashboard. */
export async function signUpNewUser(page: Page, options: { name?: string; email?: string; workspace?: string } = {}) {
  const email = options.email ?? uniqueEmail();
  const name = options.name ?? "Ada Lovelace";
  await page.goto("/sign-up");
  await page.getByLabel("Your name").fill(name);
  if (options.workspace) await page.getByLabel("Company or workspace name").fill(options.workspace);
  await page.getByLabel("Work email").fill(email);
  await page.getByLabel("Password").fill(TEST_PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Campaigns", level: 1 })).toBeVisible();
  return { email, name, password: TEST_PASSWORD };
}
