import { expect } from "@playwright/test";
import { openDefaultSender, screenshotsAtBothWidths, signUpNewUser, test, TEST_PASSWORD } from "./fixtures";
import { linkIn, waitForMail } from "./mail";

test("forgot password: the mailed link sets a new password once, signs out the old sessions, then signing in works", async ({ browser, page }) => {
  // Sign-up, two resets and three sign-ins, each hashing a password: more than the default minute on a loaded machine.
  test.setTimeout(180_000);
  const { email } = await signUpNewUser(page);
  // A session signed in before the reset (another device, or a stolen cookie).
  const earlierSession = await page.context().storageState();
  await page.context().clearCookies();

  await page.goto("/sign-in");
  await page.getByRole("link", { name: "Forgot your password?" }).click();
  await expect(page.getByRole("heading", { name: "Reset your password" })).toBeVisible();
  await screenshotsAtBothWidths(page, "forgot-password");
  await page.getByLabel("Email").fill(email);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();
  await screenshotsAtBothWidths(page, "forgot-password-sent");

  // An unknown address gets the same page.
  await page.getByRole("button", { name: "try another address" }).click();
  await page.getByLabel("Email").fill(`nobody-${Date.now()}@example.test`);
  await page.getByRole("button", { name: "Send reset link" }).click();
  await expect(page.getByRole("heading", { name: "Check your email" })).toBeVisible();

  const link = linkIn((await waitForMail(email, /Reset your Sendstream password/)).text);
  await page.goto(link);
  await expect(page.getByRole("heading", { name: "Choose a new password" })).toBeVisible();
  await page.getByLabel("New password").fill("password123");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.getByText("This password is one of the most common ones. Choose another.")).toBeVisible();
  await screenshotsAtBothWidths(page, "reset-password");
  await page.getByLabel("New password").fill("a brand new passphrase");
  await page.getByRole("button", { name: "Save new password" }).click();

  await expect(page).toHaveURL(/\/sign-in\?reset=done$/);
  await expect(page.getByRole("status")).toHaveText("Your password was changed. Sign in with the new one.");

  // The reset ended that earlier session: its pages send it to sign in, its API calls are refused.
  const earlier = await browser.newContext({ storageState: earlierSession, baseURL: test.info().project.use.baseURL });
  const earlierPage = await earlier.newPage();
  await earlierPage.goto("/campaigns");
  await expect(earlierPage).toHaveURL(/\/sign-in/);
  expect((await earlierPage.request.get("/api/v1/me")).status()).toBe(401);
  await earlier.close();

  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(TEST_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Incorrect email or password." })).toBeVisible();
  await page.getByLabel("Password").fill("a brand new passphrase");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Campaigns", level: 1 })).toBeVisible();

  // The link works once.
  await page.context().clearCookies();
  await page.goto(link);
  await page.getByLabel("New password").fill("yet another passphrase");
  await page.getByRole("button", { name: "Save new password" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "This reset link has expired or was already used." })).toBeVisible();
  await expect(page.getByRole("link", { name: "Request a new link" })).toBeVisible();
});

test("sign-up with a taken email offers signing in or a reset as links", async ({ page }) => {
  const { email } = await signUpNewUser(page);
  await page.context().clearCookies();
  await page.goto("/sign-up");
  await page.getByLabel("Your name").fill("Someone");
  await page.getByLabel("Work email").fill(email);
  await page.getByLabel("Password").fill("another-passphrase");
  await page.getByRole("button", { name: "Create account" }).click();
  const alert = page.getByRole("alert").filter({ hasText: "Incorrect email or password." });
  await expect(alert.getByRole("link", { name: "sign in instead" })).toHaveAttribute("href", "/sign-in");
  await expect(alert.getByRole("link", { name: "reset your password" })).toHaveAttribute("href", "/forgot-password");
});

test("the owner renames the workspace; the sidebar and the sandbox templates follow", async ({ page }) => {
  await signUpNewUser(page, { workspace: "Old Name Co" });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Workspace" }).click();
  await expect(page.getByRole("heading", { name: "Workspace", level: 1 })).toBeVisible();
  const name = page.getByLabel("Name");
  await expect(name).toHaveValue("Old Name Co");
  await expect(page.getByRole("button", { name: "Save name" })).toBeDisabled();
  await name.fill("   ");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("Enter a name for the workspace.")).toBeVisible();
  await name.fill("Acme Shoes");
  await page.getByRole("button", { name: "Save name" }).click();
  await expect(page.getByText("Workspace renamed")).toBeVisible();
  await expect(page.getByText("Acme Shoes", { exact: true }).first()).toBeVisible();
  await page.reload();
  await expect(page.getByLabel("Name")).toHaveValue("Acme Shoes");
  await screenshotsAtBothWidths(page, "settings-workspace");

  const templates = await page.request.get("/api/v1/templates");
  expect(templates.ok()).toBe(true);
  const text = await templates.text();
  expect(text).toContain("Acme Shoes");
  expect(text).not.toContain("Demo Shop");
});

test("the one-time key reveal asks before closing an uncopied key; focus returns to the key's row", async ({ page }) => {
  await signUpNewUser(page);
  await page.goto("/settings/api-keys");
  await expect(page.getByRole("link", { name: "API reference" })).toHaveAttribute("href", "/docs/api");
  await page.getByRole("button", { name: "Create API key" }).click();
  await page.getByRole("dialog", { name: "Create API key" }).getByLabel("Name").fill("Production");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  const reveal = page.getByRole("dialog", { name: "Save your API key" });
  await expect(reveal).toBeVisible();
  // The create dialog's closing layer may still take an Escape pressed while it fades out.
  await expect(page.getByRole("dialog", { name: "Create API key" })).toHaveCount(0);

  // Escape before copying asks; going back keeps the key on screen. The key goes to the dialog once it
  // holds the focus (a failed run pressed it while the focus was still on its way from the closed one).
  await expect.poll(() => reveal.evaluate((dialog) => dialog.contains(document.activeElement))).toBe(true);
  await page.keyboard.press("Escape");
  const ask = page.getByRole("alertdialog", { name: "Have you saved this key?" });
  await expect(ask).toBeVisible();
  await expect(ask).toContainText("It will not be shown again.");
  await screenshotsAtBothWidths(page, "keys-reveal-ask");
  await ask.getByRole("button", { name: "Back to the key" }).click();
  await expect(ask).toBeHidden();
  await expect(reveal).toBeVisible();

  // The close button asks too; confirming closes.
  await reveal.getByRole("button", { name: "Close" }).click();
  await expect(ask).toBeVisible();
  await ask.getByRole("button", { name: "Yes, close" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  const table = page.getByRole("table", { name: "API keys" });
  await expect(table.getByRole("row").filter({ hasText: "Production" })).toBeFocused();

  // After Copy, Escape closes at once.
  await page.getByRole("button", { name: "Create API key" }).click();
  await page.getByRole("dialog", { name: "Create API key" }).getByLabel("Name").fill("Staging");
  await page.getByRole("button", { name: "Create", exact: true }).click();
  await expect(reveal.getByLabel("API key")).toHaveValue(/^ss_/);
  await reveal.getByRole("button", { name: "Copy" }).click();
  await expect(reveal.getByRole("button", { name: "Copied" })).toBeVisible();
  await page.keyboard.press("Escape");
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page.getByRole("alertdialog")).toHaveCount(0);
  await expect(table.getByRole("row").filter({ hasText: "Staging" })).toBeFocused();

  // Delete buttons name their key; after a delete focus moves to the next key's Delete button.
  await table.getByRole("button", { name: "Delete key Staging" }).click();
  await page.getByRole("alertdialog").getByRole("button", { name: "Delete key" }).click();
  await expect(table.getByRole("row").filter({ hasText: "Staging" })).toHaveCount(0);
  await expect(table.getByRole("button", { name: "Delete key Production" })).toBeFocused();
  await screenshotsAtBothWidths(page, "keys-list");
});

test("WhatsApp settings: one validation for Test connection and Save, an unreachable API explained, tier, copy and generate", async ({ page }) => {
  await signUpNewUser(page);
  await openDefaultSender(page);
  await page.getByText("WhatsApp Cloud API", { exact: true }).click();
  await page.getByLabel("Phone number ID").fill("106540352242922");
  await page.getByLabel("WhatsApp Business Account ID").fill("abc");
  await page.getByLabel("Access token").fill("EAAG-secret-token-9876");
  await page.getByRole("button", { name: "Test connection" }).click();
  const wabaError = "The WhatsApp Business Account ID is a numeric ID of 5 to 30 digits from API Setup in Meta for Developers, not the phone number itself.";
  await expect(page.getByText(wabaError)).toBeVisible();
  await page.getByRole("button", { name: "Save settings" }).click();
  await expect(page.getByText(wabaError)).toBeVisible();

  await page.getByLabel("WhatsApp Business Account ID").fill("102290129340398");
  await page.getByRole("button", { name: "Generate verify token" }).click();
  const verifyToken = page.getByLabel("Webhook verify token");
  await expect(verifyToken).toHaveValue(/^[A-Za-z0-9_-]{32}$/);
  await page.getByRole("button", { name: "Copy verify token" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await verifyToken.inputValue());
  await page.getByRole("button", { name: "Copy callback URL" }).click();
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(new URL("/api/webhooks/whatsapp", page.url()).href);

  await page.getByRole("combobox", { name: "Messaging limit" }).click();
  await page.getByRole("option", { name: "2,000 customers / 24 h" }).click();
  await page.getByRole("button", { name: "Save settings" }).click();
  // Untested credentials and a switch away from the sandbox: Save asks first.
  await page.getByRole("alertdialog", { name: "Save settings without testing the connection?" }).getByRole("button", { name: "Save anyway" }).click();
  await expect(page.getByText("WhatsApp settings saved")).toBeVisible();
  // The sender is a WhatsApp number now (a new id): the list shows its limit, its page keeps it.
  await page.goto("/settings/whatsapp");
  await expect(page.getByRole("table").getByRole("row", { name: /Sandbox/ })).toContainText("2,000 customers / 24 h");
  await openDefaultSender(page);
  await expect(page.getByRole("combobox", { name: "Messaging limit" })).toHaveText("2,000 customers / 24 h");

  // The e2e server has no route to graph.facebook.com: the failure is explained, not "fetch failed".
  await page.getByRole("button", { name: "Test connection" }).click();
  const failure = page.getByRole("alert").filter({ hasText: "Could not reach the WhatsApp Cloud API" });
  await expect(failure).toBeVisible({ timeout: 20_000 });
  await expect(failure).not.toContainText("fetch failed");
  await screenshotsAtBothWidths(page, "settings-whatsapp");
});

test("several WhatsApp numbers: add one, make it the default, choose it in a campaign, delete it with a replacement", async ({ page }) => {
  await signUpNewUser(page);
  await page.goto("/settings/whatsapp");
  await page.getByRole("button", { name: "Add sender" }).click();
  const add = page.getByRole("dialog", { name: "Add sender" });
  await add.getByLabel("Name", { exact: true }).fill("Brand FR");
  await add.getByLabel("Phone number ID").fill("106540352242922");
  await add.getByLabel("WhatsApp Business Account ID").fill("102290129340398");
  await add.getByLabel("Access token").fill("EAAG-secret-token-9876");
  await add.getByRole("button", { name: "Add sender" }).click();
  // Its own page opens, to test it and set up its webhooks.
  await expect(page.getByRole("heading", { name: "Brand FR", level: 1 })).toBeVisible();
  expect(await page.content()).not.toContain("EAAG-secret-token");

  await page.goto("/settings/whatsapp");
  const table = page.getByRole("table");
  await expect(table.getByRole("row", { name: /Brand FR/ })).toContainText("Not tested");
  await page.getByRole("button", { name: "Make default: Brand FR" }).click();
  await expect(table.getByRole("row", { name: /Brand FR/ })).toContainText("Default");
  await expect(table.getByRole("row", { name: /Sandbox/ })).not.toContainText("Default");
  await screenshotsAtBothWidths(page, "settings-senders");

  // Templates are listed per number: the default's first, the others one link away.
  await page.goto("/templates");
  const numbers = page.getByRole("navigation", { name: "WhatsApp number" });
  await expect(numbers.getByRole("link", { name: "Brand FR (default)" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByText("No templates yet")).toBeVisible();
  await numbers.getByRole("link", { name: "Sandbox" }).click();
  await expect(page).toHaveURL(/\/templates\?sender=snd_/);
  await expect(numbers.getByRole("link", { name: "Sandbox" })).toHaveAttribute("aria-current", "page");
  await expect(page.getByRole("cell", { name: "order_confirmation" })).toBeVisible();
  await screenshotsAtBothWidths(page, "templates-per-number");
  await page.goto("/templates?sender=snd_doesnotexist");
  await expect(page.getByRole("heading", { name: "This page does not exist" })).toBeVisible();

  // A new campaign gets the default sender, and can switch to another one.
  await page.goto("/campaigns");
  await page.getByRole("button", { name: "New campaign" }).first().click();
  const create = page.getByRole("dialog", { name: "New campaign" });
  await create.getByLabel("Campaign name").fill("Two numbers");
  await create.getByRole("button", { name: "Create campaign" }).click();
  await expect(page).toHaveURL(/\/campaigns\/cmp_[A-Za-z0-9]+$/);
  const sender = page.getByLabel("Sender", { exact: true });
  await expect(sender).toHaveValue(/^snd_/);
  await expect(sender.locator("option:checked")).toContainText("Brand FR");
  await sender.selectOption({ label: "Sandbox · Simulated" });
  await expect(page.getByText("Sandbox mode.")).toBeVisible();

  // Deleting the default needs a replacement, which becomes the default.
  await page.goto("/settings/whatsapp");
  await page.getByRole("button", { name: "Delete Brand FR" }).click();
  const ask = page.getByRole("alertdialog", { name: "Delete “Brand FR”?" });
  await ask.getByRole("button", { name: "Delete sender" }).click();
  await expect(ask.getByText("Choose the sender that becomes the default.")).toBeVisible();
  await ask.getByLabel("New default sender").selectOption({ label: "Sandbox" });
  await ask.getByRole("button", { name: "Delete sender" }).click();
  await expect(page.getByText("“Brand FR” deleted")).toBeVisible();
  await expect(table.getByRole("row", { name: /Sandbox/ })).toContainText("Default");
});

test("the owner sets the reply window and who sees which conversations; the values stay", async ({ page }) => {
  await signUpNewUser(page, { workspace: "Inbox Settings Co" });
  await page.goto("/settings/workspace");
  const form = page.getByRole("form", { name: "Replies and inbox" });
  const hours = form.getByLabel("Reply window (hours)");
  await expect(hours).toHaveValue("72");
  await expect(form.getByRole("radio", { name: "Members see every conversation" })).toBeChecked();
  await hours.fill("200");
  await form.getByRole("button", { name: "Save inbox settings" }).click();
  await expect(form.getByText("Give a whole number of hours from 1 to 168.")).toBeVisible();
  await hours.fill("24");
  await form.getByRole("radio", { name: "Members see only theirs and unassigned ones" }).check();
  await form.getByRole("button", { name: "Save inbox settings" }).click();
  await expect(page.getByText("Inbox settings saved")).toBeVisible();
  await page.reload();
  await expect(page.getByRole("form", { name: "Replies and inbox" }).getByLabel("Reply window (hours)")).toHaveValue("24");
  await expect(page.getByRole("radio", { name: "Members see only theirs and unassigned ones" })).toBeChecked();
});
