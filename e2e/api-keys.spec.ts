import { expect, type APIRequestContext, type Page } from "@playwright/test";
import { signUpNewUser, test } from "./fixtures";

const KEY_PATTERN = /^ss_[0-9A-Za-z]{38}$/;
const HOSTILE_NAME = `<script>window.__injected = 1</script> Shopify "store" & co`;

function apiKeysTable(page: Page) {
  return page.getByRole("table", { name: "API keys" });
}

async function createKeyThroughUi(page: Page, name: string): Promise<string> {
  await page.getByRole("button", { name: "Create API key" }).click();
  const dialog = page.getByRole("dialog", { name: "Create API key" });
  await dialog.getByLabel("Name").fill(name);
  await dialog.getByRole("button", { name: "Create", exact: true }).click();
  const reveal = page.getByRole("dialog", { name: "Save your API key" });
  await expect(reveal).toBeVisible();
  return reveal.getByLabel("API key").inputValue();
}

/** The session routes need our own Origin on mutations, as a browser would send. */
function sameOrigin(baseURL: string | undefined) {
  return { Origin: new URL(baseURL!).origin };
}

async function callMe(api: APIRequestContext, key: string) {
  return api.get("/api/v1/me", { headers: { "x-api-key": key } });
}

test("create, reveal and copy a key, use it, see Last used, delete it and get 401", async ({ page, playwright, baseURL }) => {
  await signUpNewUser(page, { workspace: "Keys Test Co" });
  await page.getByRole("link", { name: "API Keys" }).click();
  await expect(page.getByRole("heading", { name: "API Keys", level: 1 })).toBeVisible();
  await expect(page.getByRole("heading", { name: "No API keys yet" })).toBeVisible();
  await page.screenshot({ path: "/tmp/keys-empty.png", fullPage: true });

  // The name is required and at most 100 characters, checked inline before anything is sent.
  await page.getByRole("button", { name: "Create API key" }).click();
  const createDialog = page.getByRole("dialog", { name: "Create API key" });
  await createDialog.getByRole("button", { name: "Create", exact: true }).click();
  await expect(createDialog.getByRole("alert")).toHaveText("Enter a name for the key.");
  await expect(createDialog.getByLabel("Name")).toHaveAttribute("aria-invalid", "true");
  await createDialog.getByLabel("Name").fill("x".repeat(101));
  await createDialog.getByRole("button", { name: "Create", exact: true }).click();
  await expect(createDialog.getByRole("alert")).toHaveText("Use at most 100 characters.");
  await page.screenshot({ path: "/tmp/keys-create-error.png", fullPage: true });
  await createDialog.getByLabel("Name").fill(HOSTILE_NAME);
  await createDialog.getByRole("button", { name: "Create", exact: true }).click();

  // One-time reveal: the full key, a Copy button with feedback, and a warning.
  const reveal = page.getByRole("dialog", { name: "Save your API key" });
  await expect(reveal).toBeVisible();
  await expect(reveal).toContainText("will not be shown again");
  const field = reveal.getByLabel("API key");
  await expect(field).toHaveAttribute("readonly", "");
  const shownKey = await field.inputValue();
  expect(shownKey).toMatch(KEY_PATTERN);
  await reveal.getByRole("button", { name: "Copy" }).click();
  await expect(reveal.getByRole("button", { name: "Copied" })).toBeVisible();
  const key = await page.evaluate(() => navigator.clipboard.readText());
  expect(key).toBe(shownKey);
  await page.screenshot({ path: "/tmp/keys-reveal.png", fullPage: true });
  await reveal.getByRole("button", { name: "Done" }).click();
  await expect(reveal).toBeHidden();

  // Back in the list only the display form remains.
  const row = apiKeysTable(page).getByRole("row").filter({ hasText: "Shopify" });
  await expect(row).toHaveCount(1);
  await expect(row.getByRole("cell").first()).toHaveText(HOSTILE_NAME);
  await expect(row).toContainText(`${key.slice(0, 7)}…${key.slice(-4)}`);
  await expect(row.getByRole("cell").nth(3)).toHaveText("Never");
  expect(await page.content()).not.toContain(key);

  // The key works against the API, from a client without the session cookie.
  const api = await playwright.request.newContext({ baseURL });
  const me = await callMe(api, key);
  expect(me.status()).toBe(200);
  expect(await me.json()).toMatchObject({ workspace: { name: "Keys Test Co" }, key: { name: HOSTILE_NAME } });
  const bearer = await api.get("/api/v1/me", { headers: { authorization: `Bearer ${key}` } });
  expect(bearer.status()).toBe(200);

  // Last used shows a time (recorded just after the response), with the exact time on hover.
  await expect(async () => {
    await page.reload();
    await expect(apiKeysTable(page).getByRole("row").filter({ hasText: "Shopify" }).getByRole("cell").nth(3)).toHaveText("just now", {
      timeout: 1_000,
    });
  }).toPass({ timeout: 15_000 });
  const lastUsed = apiKeysTable(page).getByRole("row").filter({ hasText: "Shopify" }).getByRole("cell").nth(3).locator("time");
  await expect(lastUsed).toHaveAttribute("title", /\d{4}/);
  await expect(lastUsed).toHaveAttribute("datetime", /^\d{4}-\d{2}-\d{2}T/);
  await createKeyThroughUi(page, "Zapier");
  await page.getByRole("dialog", { name: "Save your API key" }).getByRole("button", { name: "Done" }).click();
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await page.screenshot({ path: "/tmp/keys-list.png", fullPage: true });

  // Delete with confirmation; the row goes away without a page reload.
  await page.evaluate(() => ((window as unknown as { __noReload: boolean }).__noReload = true));
  await apiKeysTable(page).getByRole("row").filter({ hasText: "Shopify" }).getByRole("button", { name: "Delete" }).click();
  const confirm = page.getByRole("alertdialog");
  await expect(confirm).toBeVisible();
  await expect(confirm.getByRole("heading")).toHaveText(`Delete “${HOSTILE_NAME}”?`);
  await expect(confirm).toContainText("401");
  await expect(confirm).toContainText(`${key.slice(0, 7)}…${key.slice(-4)}`);
  await page.screenshot({ path: "/tmp/keys-delete.png", fullPage: true });
  await confirm.getByRole("button", { name: "Delete key" }).click();
  await expect(confirm).toBeHidden();
  await expect(apiKeysTable(page).getByRole("row").filter({ hasText: "Shopify" })).toHaveCount(0);
  await expect(apiKeysTable(page).getByRole("row").filter({ hasText: "Zapier" })).toHaveCount(1);
  expect(await page.evaluate(() => (window as unknown as { __noReload?: boolean }).__noReload)).toBe(true);
  expect(await page.evaluate(() => (window as unknown as { __injected?: number }).__injected)).toBeUndefined();

  // The very next request with the deleted key is refused.
  const afterDelete = await callMe(api, key);
  expect(afterDelete.status()).toBe(401);
  expect(afterDelete.headers()["www-authenticate"]).toBe('Bearer realm="sendstream", error="invalid_token"');
  expect(afterDelete.headers()["content-type"]).toBe("application/problem+json");
  await page.reload();
  await expect(apiKeysTable(page).getByRole("row").filter({ hasText: "Shopify" })).toHaveCount(0);
  await api.dispose();
});

test("key management routes: session, same origin, no secrets in lists, workspace isolation", async ({ browser, baseURL, playwright }) => {
  const anonymous = await playwright.request.newContext({ baseURL });
  expect((await anonymous.get("/api/keys")).status()).toBe(401);
  expect((await anonymous.post("/api/keys", { data: { name: "x" }, headers: sameOrigin(baseURL) })).status()).toBe(401);
  await anonymous.dispose();

  const owner = await browser.newPage();
  await signUpNewUser(owner);
  const created = await owner.request.post("/api/keys", { data: { name: "Owner key" }, headers: sameOrigin(baseURL) });
  expect(created.status()).toBe(201);
  expect(created.headers()["cache-control"]).toBe("no-store");
  const body = (await created.json()) as { id: string; name: string; key: string; displayKey: string; createdAt: string; scope: unknown };
  expect(Object.keys(body).sort()).toEqual(["createdAt", "displayKey", "id", "key", "name", "scope"]);
  expect(body.scope).toEqual({ type: "full" });
  expect(body.key).toMatch(KEY_PATTERN);

  // Cross-site and non-JSON mutations are refused.
  expect((await owner.request.post("/api/keys", { data: { name: "x" }, headers: { Origin: "https://evil.example" } })).status()).toBe(403);
  expect((await owner.request.post("/api/keys", { data: { name: "x" } })).status()).toBe(403);
  expect(
    (await owner.request.post("/api/keys", { data: "name=x", headers: { ...sameOrigin(baseURL), "Content-Type": "application/x-www-form-urlencoded" } })).status(),
  ).toBe(415);
  const invalid = await owner.request.post("/api/keys", { data: { name: " " }, headers: sameOrigin(baseURL) });
  expect(invalid.status()).toBe(422);
  expect((await invalid.json()).errors).toEqual([expect.objectContaining({ path: "name" })]);

  // Lists never contain the key or anything key-shaped.
  const list = await owner.request.get("/api/keys");
  expect(list.status()).toBe(200);
  const listText = await list.text();
  expect(listText).not.toContain(body.key);
  expect(listText).not.toMatch(/ss_[0-9A-Za-z]{38}/);
  expect(JSON.parse(listText).data).toEqual([expect.objectContaining({ id: body.id, name: "Owner key", displayKey: body.displayKey, lastUsedAt: null })]);

  // Another workspace can neither see nor delete the key.
  const intruder = await browser.newPage();
  await signUpNewUser(intruder);
  expect(JSON.parse(await (await intruder.request.get("/api/keys")).text()).data).toEqual([]);
  expect((await intruder.request.delete(`/api/keys/${body.id}`, { headers: sameOrigin(baseURL) })).status()).toBe(404);
  expect((await owner.request.delete(`/api/keys/${body.id}`, { headers: { Origin: "https://evil.example" } })).status()).toBe(403);
  expect((await callMe(owner.request, body.key)).status()).toBe(200);

  const deleted = await owner.request.delete(`/api/keys/${body.id}`, { headers: sameOrigin(baseURL) });
  expect(deleted.status()).toBe(204);
  expect((await owner.request.delete(`/api/keys/${body.id}`, { headers: sameOrigin(baseURL) })).status()).toBe(404);
  expect((await callMe(owner.request, body.key)).status()).toBe(401);
  await owner.close();
  await intruder.close();
});
