import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page } from "@playwright/test";
import { createApiKeyThroughUi, signUpNewUser, test } from "./fixtures";

/** The command text of a code example on the docs page, exactly as a reader would copy it. */
async function example(page: Page, name: string): Promise<string> {
  const text = await page.getByRole("figure", { name }).locator("pre").innerText();
  return text.trim();
}

/** Runs a copied command in a shell with the reader's variables; returns the HTTP status and body. */
function runInShell(command: string, env: Record<string, string>, cwd: string): { status: number; body: string } {
  const output = execFileSync("bash", ["-c", `${command} -sS -w '\\n%{http_code}'`], {
    cwd,
    env: { ...process.env, ...env },
    encoding: "utf8",
    timeout: 30_000,
  });
  const lines = output.trimEnd().split("\n");
  const status = Number(lines.pop());
  return { status, body: lines.join("\n") };
}

test("the API docs render publicly and their quick start works as pasted, with a real key", async ({ page, browser, baseURL }) => {
  // Public: a visitor without a session sees the docs.
  const anonymous = await browser.newPage();
  await anonymous.goto("/docs/api");
  await expect(anonymous.getByRole("heading", { name: "Sendstream API", level: 1 })).toBeVisible();
  await expect(anonymous).toHaveURL(/\/docs\/api$/);
  await anonymous.close();

  await signUpNewUser(page, { workspace: "Docs Test Co" });
  const key = await createApiKeyThroughUi(page, "Docs quick start");

  await page.goto("/docs/api");
  await expect(page.getByRole("heading", { name: "Sendstream API", level: 1 })).toBeVisible();
  await expect(page.getByTestId("base-url")).toHaveText(baseURL!);
  for (const heading of ["Authentication", "Quick start", "Campaigns", "Trigger", "Messages", "Templates", "Contacts", "Errors"]) {
    await expect(page.getByRole("heading", { name: heading, level: 2 })).toBeVisible();
  }
  await expect(page.getByRole("link", { name: "Back to app" })).toHaveAttribute("href", "/campaigns");
  await page.screenshot({ path: "/tmp/api-docs-e2e-top.png" });

  // Problem types link to the errors section: every code has an anchor.
  await page.locator("#op-updateCampaign").getByRole("link", { name: /version_conflict/ }).click();
  await expect(page).toHaveURL(/#error-version_conflict$/);
  await expect(page.locator("#error-version_conflict")).toBeInViewport();
  await page.screenshot({ path: "/tmp/api-docs-e2e-errors.png" });

  // A reference example, run as copied: list templates.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "sendstream-docs-"));
  const env: Record<string, string> = { SENDSTREAM_API_KEY: key };
  const templates = runInShell(await example(page, "curl: List templates"), env, dir);
  expect(templates.status).toBe(200);
  const templateList = JSON.parse(templates.body) as { data: { id: string; name: string }[]; nextCursor: null };
  expect(templateList.data.map((t) => t.name)).toContain("order_confirmation");

  // The whole quick start, step by step, with the variables it tells the reader to export.
  await page.getByRole("link", { name: "Quick start" }).first().click();
  await page.screenshot({ path: "/tmp/api-docs-e2e-quickstart.png" });
  const me = runInShell(await example(page, "Quick start: Check the key"), env, dir);
  expect(me.status).toBe(200);
  expect(JSON.parse(me.body)).toMatchObject({ workspace: { name: "Docs Test Co" }, key: { name: "Docs quick start" } });

  const listed = runInShell(await example(page, "Quick start: List templates"), env, dir);
  env.TEMPLATE_ID = (JSON.parse(listed.body) as typeof templateList).data.find((t) => t.name === "order_confirmation")!.id;

  const created = runInShell(await example(page, "Quick start: Create a campaign"), env, dir);
  expect(created.status).toBe(201);
  env.CAMPAIGN_ID = (JSON.parse(created.body) as { id: string }).id;

  const mapped = runInShell(await example(page, "Quick start: Map fields and variables"), env, dir);
  expect(mapped.status, mapped.body).toBe(200);
  expect(JSON.parse(mapped.body)).toMatchObject({ templateId: env.TEMPLATE_ID, version: 2 });

  const deployed = runInShell(await example(page, "Quick start: Deploy the campaign"), env, dir);
  expect(deployed.status, deployed.body).toBe(200);
  expect(JSON.parse(deployed.body)).toMatchObject({ status: "active" });

  const triggered = runInShell(await example(page, "Quick start: Trigger the campaign"), env, dir);
  expect(triggered.status, triggered.body).toBe(202);
  const message = JSON.parse(triggered.body) as { id: string; status: string };
  expect(message.status).toBe("queued");

  await expect(async () => {
    const logs = runInShell(await example(page, "Quick start: List the campaign's messages"), env, dir);
    expect(logs.status).toBe(200);
    const body = JSON.parse(logs.body) as { data: { id: string; status: string }[] };
    expect(body.data).toEqual([expect.objectContaining({ id: message.id, status: expect.stringMatching(/^(sent|delivered|read)$/) })]);
  }).toPass({ timeout: 20_000 });

  const csv = runInShell(await example(page, "Quick start: Export the logs as CSV"), env, dir);
  expect(csv.status).toBe(200);
  const exported = fs.readFileSync(path.join(dir, "logs.csv"), "utf8");
  expect(exported.split("\n")[0]).toContain("created_at,message_id,phone_number");
  expect(exported).toContain(message.id);

  // A real problem's `type` opens its entry in the errors section.
  const refused = await page.request.post("/api/v1/campaigns", { headers: { "x-api-key": key }, data: { name: "x", colour: "red" } });
  expect(refused.status()).toBe(422);
  const problem = (await refused.json()) as { type: string; errors: { path: string }[] };
  expect(problem.errors).toEqual([expect.objectContaining({ path: "colour" })]);
  await page.goto(problem.type);
  await expect(page.locator("#error-validation_failed")).toBeInViewport();
  await expect(page.locator("#error-validation_failed")).toContainText("422");

  // The document the page is rendered from is served alongside it.
  const openapi = await page.request.get("/api/v1/openapi.json");
  expect(openapi.status()).toBe(200);
  expect((await openapi.json()).openapi).toBe("3.1.0");
  fs.rmSync(dir, { recursive: true, force: true });
});
