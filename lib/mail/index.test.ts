import fs from "node:fs";
import http from "node:http";
import os from "node:os";
import path from "node:path";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, it, vi } from "vitest";
import { mailDelivery, mailTransportFromEnv, sendMail } from "./index";

const mail = { to: "ada@example.test", subject: "Hello", text: "Body" };

afterEach(() => vi.restoreAllMocks());

describe("mail transports", () => {
  it("prints to the terminal by default outside production", async () => {
    const info = vi.spyOn(console, "info").mockImplementation(() => {});
    await sendMail(mail, mailTransportFromEnv({ NODE_ENV: "development" }));
    expect(info.mock.calls[0]?.[0]).toContain("ada@example.test: Hello");
  });

  it("warns once in production when no transport is configured", async () => {
    const warn = vi.spyOn(console, "warn").mockImplementation(() => {});
    const transport = mailTransportFromEnv({ NODE_ENV: "production" });
    await sendMail(mail, transport);
    await sendMail(mail, transport);
    expect(warn).toHaveBeenCalledTimes(1);
  });

  it("POSTs the mail as JSON to the webhook", async () => {
    const received: { auth?: string; body: string }[] = [];
    const server = http.createServer((req, res) => {
      let body = "";
      req.on("data", (chunk) => (body += chunk));
      req.on("end", () => {
        received.push({ auth: req.headers.authorization, body });
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    try {
      const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/mail`;
      await sendMail(mail, mailTransportFromEnv({ NODE_ENV: "production", MAIL_TRANSPORT: "webhook", MAIL_WEBHOOK_URL: url, MAIL_WEBHOOK_TOKEN: "t0k" }));
    } finally {
      server.close();
    }
    expect(received).toEqual([{ auth: "Bearer t0k", body: JSON.stringify(mail) }]);
  });

  it("appends each mail as a JSON line to MAIL_FILE, creating its folder", async () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), "mail-")), "nested", "outbox.jsonl");
    const transport = mailTransportFromEnv({ NODE_ENV: "production", MAIL_TRANSPORT: "file", MAIL_FILE: file });
    await sendMail(mail, transport);
    await sendMail({ ...mail, subject: "Second" }, transport);
    const lines = fs.readFileSync(file, "utf8").trim().split("\n").map((line) => JSON.parse(line) as Record<string, string>);
    expect(lines.map((line) => line.subject)).toEqual(["Hello", "Second"]);
    expect(lines[0]).toMatchObject({ ...mail, sentAt: expect.stringMatching(/^\d{4}-/) });
  });
});

describe("whether mail reaches people", () => {
  it("only through a webhook with a URL; otherwise a notice names MAIL_TRANSPORT", () => {
    expect(mailDelivery({ MAIL_TRANSPORT: "webhook", MAIL_WEBHOOK_URL: "https://relay.test/mail" })).toEqual({ delivers: true, notice: null });
    for (const env of [{ NODE_ENV: "development" }, { MAIL_TRANSPORT: "file" }, { MAIL_TRANSPORT: "none" }, { NODE_ENV: "production" }, { MAIL_TRANSPORT: "webhook" }]) {
      const delivery = mailDelivery(env);
      expect(delivery.delivers, JSON.stringify(env)).toBe(false);
      expect(delivery.notice).toMatch(/^No email is configured \(MAIL_TRANSPORT .*\)\. Copy the link and send it yourself\.$/);
    }
  });
});
