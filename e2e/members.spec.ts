import { expect } from "@playwright/test";
import { audit, expectFitsPhone, expectNoViolations, type PageReport } from "./checks";
import { screenshotsAtBothWidths, signUpNewUser, test, TEST_PASSWORD, uniqueEmail, waitForToastsToClose } from "./fixtures";
import { linkIn, waitForMail } from "./mail";

test("invite a member by email, sign up as them through the link, work as a member, switch workspaces", async ({ page }) => {
  const reports: PageReport[] = [];
  await signUpNewUser(page, { name: "Olivia Owner", workspace: "Acme Shop" });
  await page.getByRole("navigation", { name: "Main" }).getByRole("link", { name: "Members" }).click();
  await expect(page.getByRole("table", { name: "Members" })).toContainText("Olivia Owner");

  const invitee = uniqueEmail("mia");
  await page.getByRole("button", { name: "Invite member" }).click();
  const dialog = page.getByRole("dialog", { name: "Invite member" });
  await dialog.getByLabel("Email").fill(invitee);
  await dialog.getByRole("button", { name: "Invite" }).click();
  // The e2e server writes mail to a file: the dialog says no email reaches people, and offers the link.
  const created = page.getByRole("dialog", { name: "Invitation created" });
  await expect(created.getByRole("status")).toContainText("No email is configured (MAIL_TRANSPORT is file");
  const firstLink = await created.getByRole("textbox", { name: `Invite link for ${invitee}` }).inputValue();
  await expect(created.getByRole("button", { name: `Copy the invite link for ${invitee}` })).toBeVisible();
  await audit(page, "invite link dialog", reports);
  await screenshotsAtBothWidths(page, "members-invite-link");
  await created.getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("list", { name: "Pending invitations" })).toContainText(invitee);

  // Copying a pending invitation's link renews it: the new link works, the first no longer does.
  const pending = page.getByRole("list", { name: "Pending invitations" });
  await pending.getByRole("button", { name: `Copy invite link for ${invitee}` }).click();
  const copied = pending.getByRole("textbox", { name: `Invite link for ${invitee}` });
  await expect(copied).toHaveValue(/\/invite\//);
  const link = await copied.inputValue();
  expect(link).not.toBe(firstLink);
  await waitForToastsToClose(page);
  await audit(page, "members", reports);
  await screenshotsAtBothWidths(page, "members");
  await page.setViewportSize({ width: 390, height: 844 });
  await expectFitsPhone(page, "members");
  await page.setViewportSize({ width: 1280, height: 720 });

  const mail = await waitForMail(invitee, /invited you to Acme Shop/);
  expect(linkIn(mail.text)).toBe(firstLink);
  // The renewed link is opened in a browser of its own: the earlier one is refused there.
  const other = await page.context().browser()!.newContext({ baseURL: new URL(link).origin });
  const fresh = await other.newPage();
  await fresh.goto(new URL(firstLink).pathname);
  await expect(fresh.getByText("This invitation link is not valid")).toBeVisible();
  await fresh.goto(new URL(link).pathname);
  await expect(fresh.getByRole("heading", { name: "Join Acme Shop" })).toBeVisible();
  await other.close();
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: "Sign out" }).click();
  await expect(page.getByRole("heading", { name: "Welcome back" })).toBeVisible();

  // The link: who invites whom, then an account for the invited address.
  await page.goto(new URL(link).pathname);
  await expect(page.getByRole("heading", { name: "Join Acme Shop" })).toBeVisible();
  await audit(page, "invitation", reports);
  await page.getByRole("link", { name: "Create an account" }).click();
  await expect(page.getByLabel("Work email")).toHaveValue(invitee);
  await page.getByLabel("Your name").fill("Mia Member");
  await page.getByLabel("Password").fill(TEST_PASSWORD);
  await page.getByRole("button", { name: "Create account" }).click();
  await expect(page.getByRole("heading", { name: "Join Acme Shop" })).toBeVisible();
  await page.getByRole("button", { name: "Accept and join" }).click();
  await expect(page.getByRole("heading", { name: "Campaigns", level: 1 })).toBeVisible();
  await expect(page.getByText("Acme Shop")).toBeVisible();

  // A member builds campaigns; keys, sender, webhooks and alerts are for owners and admins.
  const nav = page.getByRole("navigation", { name: "Main" });
  await expect(nav.getByRole("link", { name: "Members" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "API Keys" })).toHaveCount(0);
  await page.goto("/settings/api-keys");
  await expect(page.getByRole("heading", { name: "Owners and admins only" })).toBeVisible();
  await page.goto("/settings/members");
  await expect(page.getByRole("table", { name: "Members" })).toContainText("Mia Member");
  await expect(page.getByRole("button", { name: "Invite member" })).toHaveCount(0);

  // Her own workspace is one switch away.
  await page.getByRole("button", { name: "Account menu" }).click();
  await page.getByRole("menuitem", { name: /Mia Member's workspace/ }).click();
  await expect(page.getByRole("heading", { name: "Campaigns", level: 1 })).toBeVisible();
  await expect(page.getByText("Mia Member's workspace").first()).toBeVisible();
  await expect(nav.getByRole("link", { name: "API Keys" })).toBeVisible();
  expectNoViolations(reports);
});
