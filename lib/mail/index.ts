/**
 * Outgoing mail, behind one function. The transport comes from MAIL_TRANSPORT:
 * - `console` (the default outside production): prints the mail to the server's terminal;
 * - `webhook`: POSTs `{ to, subject, text }` as JSON to MAIL_WEBHOOK_URL (with
 *   `Authorization: Bearer MAIL_WEBHOOK_TOKEN` when set), for a relay such as a mail provider's
 *   HTTP API or an automation;
 * - `file`: appends each mail as one JSON line (`{ to, subject, text, sentAt }`) to MAIL_FILE
 *   (default `.data/mail/outbox.jsonl`), for local development and end-to-end tests that read the
 *   links a mail carries;
 * - `none`: drops mail. Production without a transport drops it too and warns once.
 */
import fs from "node:fs/promises";
import path from "node:path";

export interface Mail {
  to: string;
  subject: string;
  text: string;
}

export type MailTransport = (mail: Mail) => Promise<void>;

type Env = Record<string, string | undefined>;

let warned = false;

export function mailTransportFromEnv(env: Env = process.env): MailTransport {
  const kind = env.MAIL_TRANSPORT || (env.NODE_ENV === "production" ? undefined : "console");
  if (kind === "console") return consoleTransport;
  if (kind === "webhook" && env.MAIL_WEBHOOK_URL) return webhookTransport(env.MAIL_WEBHOOK_URL, env.MAIL_WEBHOOK_TOKEN);
  if (kind === "file") return fileTransport(env.MAIL_FILE || DEFAULT_MAIL_FILE);
  if (kind === "none") return async () => {};
  return async () => {
    if (warned) return;
    warned = true;
    console.warn("Sendstream: no mail transport is configured (MAIL_TRANSPORT); account notices are not sent.");
  };
}

/**
 * Whether mail reaches people's inboxes: only the `webhook` transport hands it to a relay. The
 * others print it, write it to a file or drop it; `notice` then says so in words a person can act
 * on (copy the link and send it yourself), naming the variable to set.
 */
export function mailDelivery(env: Env = process.env): { delivers: boolean; notice: string | null } {
  const kind = env.MAIL_TRANSPORT || (env.NODE_ENV === "production" ? undefined : "console");
  if (kind === "webhook" && env.MAIL_WEBHOOK_URL) return { delivers: true, notice: null };
  const where =
    kind === "console"
      ? "MAIL_TRANSPORT is console: mail is only printed in the server's terminal"
      : kind === "file"
        ? "MAIL_TRANSPORT is file: mail is only written to a file on the server"
        : kind === "webhook"
          ? "MAIL_TRANSPORT is webhook but MAIL_WEBHOOK_URL is not set"
          : "MAIL_TRANSPORT is not set";
  return { delivers: false, notice: `No email is configured (${where}). Copy the link and send it yourself.` };
}

/** Sends one mail with the configured transport. Rejects when the transport fails. */
export function sendMail(mail: Mail, transport: MailTransport = mailTransportFromEnv()): Promise<void> {
  return transport(mail);
}

export const DEFAULT_MAIL_FILE = path.join(".data", "mail", "outbox.jsonl");

function fileTransport(file: string): MailTransport {
  return async (mail) => {
    await fs.mkdir(path.dirname(path.resolve(file)), { recursive: true });
    await fs.appendFile(file, `${JSON.stringify({ ...mail, sentAt: new Date().toISOString() })}\n`, { mode: 0o600 });
  };
}

const consoleTransport: MailTransport = async (mail) => {
  console.info(`\n--- mail to ${mail.to}: ${mail.subject}\n${mail.text}\n---\n`);
};

function webhookTransport(url: string, token: string | undefined): MailTransport {
  return async (mail) => {
    const response = await fetch(url, {
      method: "POST",
      headers: { "Content-Type": "application/json", ...(token ? { Authorization: `Bearer ${token}` } : {}) },
      body: JSON.stringify(mail),
      signal: AbortSignal.timeout(10_000),
    });
    if (!response.ok) throw new Error(`Mail webhook answered ${response.status}`);
  };
}
