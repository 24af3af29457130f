// Shared by the alert settings form (browser) and the route (server): no server imports here.
import { z } from "zod";
import type { NoticeKind } from "@/db/schema";

/** How far back a campaign's failure rate looks. */
export const ALERT_WINDOW_MINUTES = 15;

export const alertSettingsInputSchema = z
  .object({
    failureRatePercent: z.coerce
      .number({ error: "Enter a percentage." })
      .int("Use a whole number.")
      .min(1, "Use 1 to 100.")
      .max(100, "Use 1 to 100."),
    minMessages: z.coerce
      .number({ error: "Enter a number of messages." })
      .int("Use a whole number.")
      .min(1, "At least 1.")
      .max(100_000, "At most 100,000."),
    emailOwners: z.boolean(),
    /** A new Slack-compatible incoming-webhook URL, `null` to remove it, absent to keep the stored one. */
    slackWebhookUrl: z
      .string()
      .trim()
      .max(2048, "Use at most 2,048 characters.")
      .refine((value) => /^https?:\/\/\S+$/i.test(value), "Enter the full incoming-webhook URL, such as https://hooks.slack.com/services/….")
      .nullable()
      .optional(),
  })
  .strict();
export type AlertSettingsInput = z.input<typeof alertSettingsInputSchema>;

export interface AlertSettingsView {
  failureRatePercent: number;
  minMessages: number;
  emailOwners: boolean;
  /** The stored Slack URL's host and last characters, never the URL itself; null when none. */
  slackWebhook: string | null;
}

export interface NoticeView {
  id: string;
  kind: NoticeKind;
  title: string;
  detail: string;
  href: string;
  createdAt: string;
  resolvedAt: string | null;
  dismissedAt: string | null;
  emailedAt: string | null;
  slackPostedAt: string | null;
  notifyError: string | null;
}
