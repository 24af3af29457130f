import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";
import { E2E_BASE_URL as baseURL, E2E_PORT as port } from "./e2e/base-url";

// Without DATABASE_URL every run gets its own embedded database, so runs never share state.
if (!process.env.DATABASE_URL) {
  process.env.E2E_PGLITE_DIR ??= path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sendstream-e2e-")), "pglite");
}

// Mail (password reset links) goes to a file the tests read: see e2e/mail.ts.
process.env.E2E_MAIL_FILE ??= path.join(fs.mkdtempSync(path.join(os.tmpdir(), "sendstream-e2e-mail-")), "outbox.jsonl");

// Debian's headless shell (package chromium-headless-shell: the same Chromium build in its old
// headless mode, without the full browser's window and compositor) when installed: it ran the
// specs on a quarter less CPU than /usr/bin/chromium. CHROMIUM_PATH picks another binary.
const chromium =
  process.env.CHROMIUM_PATH ?? ["/usr/bin/chromium-headless-shell", "/usr/bin/chromium"].find((candidate) => fs.existsSync(candidate)) ?? "/usr/bin/chromium";

const next = "node node_modules/next/dist/bin/next";
const build = process.env.E2E_SKIP_BUILD ? "" : `${next} build && `;

export default defineConfig({
  testDir: "./e2e",
  outputDir: "./test-results",
  fullyParallel: false,
  // Each test signs up a user of its own, so spec files can run side by side (CI uses 2).
  workers: Number(process.env.E2E_WORKERS ?? 1),
  retries: process.env.CI ? 1 : 0,
  // Generous: in CI the reliability scenarios run beside the end-to-end tests on two cores.
  timeout: 120_000,
  expect: { timeout: 10_000 },
  reporter: process.env.CI ? [["list"]] : [["list"], ["html", { open: "never" }]],
  use: {
    baseURL,
    // Recording a trace (a screencast and a DOM snapshot per action) took a third of the browsers' CPU
    // in CI, for every test: there it is recorded on a failed test's retry. A local run has no retry
    // (retries above), so it keeps the trace of each failed test.
    trace: process.env.CI ? "on-first-retry" : "retain-on-failure",
    // An action (click, fill) that cannot happen fails after 20 s instead of waiting out the test's
    // 120 s: one such wait in CI (a fill on a settings form, passed on the retry) cost two minutes.
    actionTimeout: 20_000,
    screenshot: "only-on-failure",
    // As someone who asked for less motion (app/globals.css): a spinner left turning while a test waits
    // kept the browser compositing 60 frames a second, a tenth of a core for each one on screen.
    reducedMotion: "reduce",
    permissions: ["clipboard-read", "clipboard-write"],
  },
  projects: [
    {
      name: "chromium",
      use: {
        ...devices["Desktop Chrome"],
        launchOptions: {
          executablePath: chromium,
          args: ["--disable-gpu", "--disable-background-networking", "--disable-component-update", "--disable-sync", "--no-first-run"],
        },
      },
    },
  ],
  webServer: {
    command: `${build}${next} start -p ${port} -H 127.0.0.1`,
    url: `${baseURL}/api/health`,
    reuseExistingServer: false,
    timeout: 240_000,
    stdout: "pipe",
    env: {
      ...(process.env as Record<string, string>),
      ...(process.env.E2E_PGLITE_DIR ? { PGLITE_DIR: process.env.E2E_PGLITE_DIR } : {}),
      APP_URL: baseURL,
      AUTH_SECRET: process.env.AUTH_SECRET ?? "e2e-only-secret-0123456789abcdef0123456789",
      CRON_SECRET: process.env.CRON_SECRET ?? "e2e-only-cron-secret-0123456789",
      // Production refuses to start without a key of its own for stored credentials.
      ENCRYPTION_KEY: process.env.ENCRYPTION_KEY ?? "e2e0".repeat(16),
      MAIL_TRANSPORT: "file",
      // The alerts spec waits for an evaluation: every 5 s here instead of 30.
      ALERTS_EVERY_SECONDS: "5",
      // The webhook spec's receiver listens on 127.0.0.1 over plain http.
      WEBHOOKS_ALLOW_PRIVATE_URLS: "true",
      MAIL_FILE: process.env.E2E_MAIL_FILE,
      // The demo login and its workspace (e2e/first-run.spec.ts); every other test signs up its own user.
      SENDSTREAM_SEED: process.env.SENDSTREAM_SEED ?? "true",
    },
    gracefulShutdown: { signal: "SIGTERM", timeout: 5_000 },
  },
});
