import { test as base, expect, type Page } from "@playwright/test";
import { E2E_BASE_URL } from "./base-url";

/**
 * The specs' `test`: its page waits, after each `goto` and `reload`, until React has hydrated the
 * document (components/hydration-marker.tsx). A fill or click before that reaches the DOM but not
 * the component: a form's Save stayed disabled, or a typed value was put back, and the test waited
 * out its timeout (seen in CI on the settings forms, passing on the retry).
 */
export const test = base.extend({
  page: async ({ page, javaScriptEnabled }, provide) => {
    // Without scripts (a spec of what works before they run) nothing hydrates.
    if (javaScriptEnabled === false) return provide(page);
    const hydrated = () => page.locator("html[data-hydrated]").waitFor({ state: "attached" });
    const goto = page.goto.bind(page);
    const reload = page.reload.bind(page);
    page.goto = async (...args: Parameters<Page["goto"]>) => {
      const response = await goto(...args);
      await hydrated();
      return response;
    };
    page.reload = async (...args: Parameters<Page["reload"]>) => {
      const response = await reload(...args);
      await hydrated();
      return response;
    };
    await provide(page);
  },
});

let counter = 0;

export function uniqueEmail(prefix = "user"): string {
  counter += 1;
  return `${prefix}-${Date.now().toString(36)}-${counter}@example.test`;
}

export const TEST_PASSWORD = "correct horse battery";

type NewUserOptions = { name?: string; email?: string; workspace?: string };

/** The account a sign-up helper creates: a fresh email unless given, the test password. */
const newAccount = (options: NewUserOptions) => ({ email: options.email ?? uniqueEmail(), name: options.name ?? "Ada Lovelace", password: TEST_PASSWORD });

/**
 * Creates a fresh account and opens the dashboard signed in. The account is made as the sign-up form
 * makes it (its endpoint, then next-auth's credentials sign-in), through the browser context's own
 * request client so the session cookie lands in the page: loading and filling the form for each of
 * the suite's tests cost the browser more CPU than anything they check. `signUpThroughForm` is the
 * form itself (e2e/auth.spec.ts).
 */
export async function signUpNewUser(page: Page, options: NewUserOptions = {}) {
  const account = newAccount(options);
  const { email, name } = account;
  const origin = E2E_BASE_URL;
  const signedUp = await page.request.post("/api/auth/sign-up", {
    headers: { origin },
    data: { name, email, password: TEST_PASSWORD, ...(options.workspace ? { workspaceName: options.workspace } : {}) },
  });
  expect(signedUp.status(), await signedUp.text()).toBe(201);
  const { csrfToken } = (await (await page.request.get("/api/auth/csrf")).json()) as { csrfToken: string };
  const signedIn = await page.request.post("/api/auth/callback/credentials", {
    headers: { origin },
    form: { csrfToken, email, password: TEST_PASSWORD, callbackUrl: `${origin}/`, json: "true" },
  });
  expect(signedIn.ok(), await signedIn.text()).toBe(true);
  await page.goto("/");
  await expect(page.getByRole("heading", { name: "Campaigns", level: 1 })).toBeVisible({ timeout: 30_000 });
  return account;
}

/** Creates a fresh account through the sign-up form and waits for the dashboard. */
export async function signUpThroughForm(page: Page, options: NewUserOptions = {}) {
  const account = newAccount(options);
  const { email, name } = account;
  await page.goto("/sign-up");
  await page.getByLabel("Your name").fill(name);
  if (options.workspace) await page.getByLabel("Company or workspace name").fill(options.workspace);
  await page.getByLabel("Work email").fill(email);
  await page.getByLabel("Password").fill(TEST_PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  // Sign-up hashes the password (scrypt, slow on purpose), creates the workspace and signs in. With the reliability
  // scenarios beside it on 2 cores, that once took over the default 10 s.
  await expect(page.getByRole("heading", { name: "Campaigns", level: 1 })).toBeVisible({ timeout: 30_000 });
  return account;
}

/** Creates a key in Settings → API Keys and returns the full key read from the one-time reveal dialog. */
export async function createApiKeyThroughUi(page: Page, name = "E2E key"): Promise<string> {
  await page.goto("/settings/api-keys");
  await page.getByRole("button", { name: "Create API key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create API key" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByRole("button", { name: "Create", exact: true }).click();
  const reveal = page.getByRole("dialog", { name: "Save your API key" });
  await expect(reveal).toBeVisible();
  const key = await reveal.getByLabel("API key").inputValue();
  await reveal.getByRole("button", { name: "Done" }).click();
  // The dialog fades out over the page; wait until it is gone so the page is read as a user sees it.
  await expect(reveal).toHaveCount(0);
  return key;
}

/**
 * Toasts sit bottom right and stop their timer while the pointer rests on them, so one left open can
 * cover the next control a test clicks there. Moves the pointer away and waits until they have closed.
 */
export async function waitForToastsToClose(page: Page) {
  await page.mouse.move(0, 0);
  await expect(page.locator("[data-sonner-toast]")).toHaveCount(0);
}

/**
 * From the campaigns list: creates a trigger campaign mapping `phone`, `name` and `order_number` to
 * the sandbox's order confirmation template, ready to deploy, and returns its id.
 */
export async function buildOrderCampaign(page: Page, name = "Order confirmation"): Promise<string> {
  await page.getByRole("button", { name: "New campaign" }).first().click();
  const dialog = page.getByRole("dialog", { name: "New campaign" });
  await dialog.getByLabel("Campaign name").fill(name);
  await dialog.getByRole("button", { name: "Create campaign" }).click();
  await expect(page).toHaveURL(/\/campaigns\/cmp_[A-Za-z0-9]+$/);
  const id = page.url().split("/").pop()!;
  await page.getByRole("button", { name: "Add field" }).click();
  await page.getByLabel("Request field 1").fill("name");
  await page.getByLabel("Request field 1").blur();
  await page.getByRole("button", { name: "Add field" }).click();
  await page.getByLabel("Request field 2").fill("order_number");
  await page.getByLabel("Request field 2").blur();
  await page.getByLabel("Template", { exact: true }).selectOption({ label: "order_confirmation · en_US · utility" });
  await page.getByLabel("Attribute for Body {{1}}").selectOption("name");
  await page.getByLabel("Attribute for Body {{2}}").selectOption("order_number");
  return id;
}

/** `buildOrderCampaign`, then deploys it and closes the "live" dialog. */
export async function deployOrderCampaign(page: Page, name = "Order confirmation"): Promise<string> {
  const id = await buildOrderCampaign(page, name);
  await page.getByRole("button", { name: "Deploy" }).click();
  const live = page.getByRole("dialog", { name: "Your campaign is live" });
  await expect(live).toBeVisible();
  await live.getByRole("button", { name: "Done" }).click();
  await expect(page.getByTestId("campaign-status")).toHaveText("Active");
  return id;
}

/** Full-page screenshots at 1280 and 390 px into E2E_SCREENSHOT_DIR (/tmp by default); the viewport is put back. */
export async function screenshotsAtBothWidths(page: Page, name: string) {
  const dir = process.env.E2E_SCREENSHOT_DIR ?? "/tmp";
  await page.screenshot({ path: `${dir}/${name}-1280.png`, fullPage: true });
  const size = page.viewportSize();
  await page.setViewportSize({ width: 390, height: 844 });
  await page.screenshot({ path: `${dir}/${name}-390.png`, fullPage: true });
  if (size) await page.setViewportSize(size);
}

/**
 * Opens the settings page of the workspace's first sender (the sandbox a new workspace starts with)
 * from Settings → WhatsApp. Its id changes when its provider or number does, so after such a save
 * reach it again this way rather than by reloading.
 */
export async function openDefaultSender(page: Page, name = "Sandbox") {
  await page.goto("/settings/whatsapp");
  await page.getByRole("link", { name: `Edit ${name}` }).click();
  await expect(page.getByRole("heading", { name, level: 1 })).toBeVisible();
}

/** The demo login the server seeds on start (SENDSTREAM_SEED, set by playwright.config.ts). */
export const DEMO_LOGIN = { email: "demo@sendstream.local", password: "sendstream-demo" };

/** Signs in as the demo user, whose workspace starts with customers and two campaigns. */
export async function signInAsDemo(page: Page) {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill(DEMO_LOGIN.email);
  await page.getByLabel("Password").fill(DEMO_LOGIN.password);
  await page.getByRole("button", { name: "Sign in", exact: true }).click();
  await expect(page.getByRole("heading", { name: "Campaigns", level: 1 })).toBeVisible();
}
