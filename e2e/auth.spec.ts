import { expect } from "@playwright/test";
import { signUpNewUser, signUpThroughForm, test, TEST_PASSWORD, uniqueEmail } from "./fixtures";
import { linkIn, waitForMail } from "./mail";

test("sign up, sign out, sign in again, and a wrong password is refused", async ({ page }) => {
  await page.goto("/sign-up");
  await page.screenshot({ path: "test-results/screens/sign-up.png", fullPage: true });

  const { email } = await signUpThroughForm(page, { name: "Ada Lovelace", workspace: "Analytical Engines" });
  await expect(page).toHaveURL(/\/campaigns$/);
  await expect(page.getByText("No campaigns yet")).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Campaigns" })).toHaveAttribute("aria-current", "page");
  await page.screenshot({ path: "test-results/screens/dashboard-empty.png", fullPage: true });

  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Welcome back" })).toBeVisible();

  // Signed out: the dashboard sends visitors to sign in.
  await page.goto("/settings/api-keys");
  await expect(page).toHaveURL(/\/sign-in/);
  await page.screenshot({ path: "test-results/screens/sign-in.png", fullPage: true });

  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill("not the password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Incorrect email or password." })).toBeVisible();
  await page.screenshot({ path: "test-results/screens/sign-in-error.png", fullPage: true });

  await page.getByLabel("Password").fill(TEST_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  // The callback URL brings the user back to where they were going.
  await expect(page.getByRole("heading", { name: "API Keys", level: 1 })).toBeVisible();
});

test("an unknown email gets the same error as a wrong password", async ({ page }) => {
  await page.goto("/sign-in");
  await page.getByLabel("Email").fill("nobody-here@example.test");
  await page.getByLabel("Password").fill("whatever-password");
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Incorrect email or password." })).toBeVisible();
});

test("sign-up shows inline errors and does not reveal a taken email", async ({ page }) => {
  const { email } = await signUpNewUser(page);
  await page.context().clearCookies();
  await page.goto("/sign-up");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Enter your name")).toBeVisible();
  await expect(page.getByText("Enter your email address")).toBeVisible();

  await page.getByLabel("Your name").fill("Someone Else");
  await page.getByLabel("Work email").fill(email);
  await page.getByLabel("Password").fill("12345678");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByText("Use at least 10 characters")).toBeVisible();

  // A taken email gets the same answer as a new one; the sign-in that follows fails like any wrong password.
  await page.getByLabel("Password").fill("another-password");
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("alert").filter({ hasText: "Incorrect email or password." })).toBeVisible();
  await expect(page).toHaveURL(/\/sign-up$/);
});

test("the mobile layout hides the sidebar behind a menu button", async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await signUpNewUser(page);
  await page.getByRole("button", { name: "Open menu" }).click();
  await page.getByRole("link", { name: "Logs" }).click();
  await expect(page.getByRole("heading", { name: "Logs", level: 1 })).toBeVisible();
  await page.screenshot({ path: "test-results/screens/mobile-logs.png", fullPage: true });
});

test("sign-up mails a link that confirms the address once opened in the account's session; until then a banner says so", async ({ page }) => {
  const { email } = await signUpNewUser(page);
  const banner = page.getByRole("region", { name: "Confirm your email" });
  await expect(banner).toContainText(email);
  const link = linkIn((await waitForMail(email, /Confirm your email address/)).text);

  // Opened signed out (another browser, the phone): sign in first, then the link does its work.
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Welcome back" })).toBeVisible();
  await page.goto(link);
  await expect(page.getByText("Sign in to confirm your email address.")).toBeVisible();
  await page.getByLabel("Email").fill(email);
  await page.getByLabel("Password").fill(TEST_PASSWORD);
  await page.getByRole("button", { name: "Sign in" }).click();
  await expect(page.getByRole("heading", { name: "Email address confirmed" })).toBeVisible();

  await page.goto("/campaigns");
  await expect(page.getByRole("heading", { name: "Campaigns", level: 1 })).toBeVisible();
  await expect(banner).toHaveCount(0);
});

test.describe("before the page's script has run", () => {
  test.use({ javaScriptEnabled: false });

  test("the sign-in and sign-up forms post: no password reaches a URL", async ({ page }) => {
    const urls: string[] = [];
    page.on("request", (request) => void urls.push(`${request.method()} ${request.url()}`));

    await page.goto("/sign-in");
    await page.getByLabel("Email").fill("someone@example.test");
    await page.getByLabel("Password").fill("secret-sign-in-password");
    await page.getByRole("button", { name: "Sign in" }).click();
    await expect(page.getByRole("heading", { name: "Welcome back" })).toBeVisible();

    await page.goto("/sign-up");
    await page.getByLabel("Your name").fill("Ada");
    await page.getByLabel("Work email").fill(uniqueEmail());
    await page.getByLabel("Password").fill("secret-sign-up-password");
    await page.getByRole("button", { name: "Create account" }).click();
    await expect(page.getByRole("heading", { name: "Create your account" })).toBeVisible();

    expect(urls).toEqual(expect.arrayContaining([expect.stringMatching(/^POST .*\/sign-in$/), expect.stringMatching(/^POST .*\/sign-up$/)]));
    expect(urls.join("\n")).not.toContain("secret-");
    expect(page.url()).not.toContain("secret-");
  });
});
