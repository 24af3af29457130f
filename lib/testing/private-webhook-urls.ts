// Vitest only (the e2e tests import the receiver, not this).
import { afterEach, beforeEach } from "vitest";

/**
 * For a test file whose endpoints are a local receiver on 127.0.0.1: WEBHOOKS_ALLOW_PRIVATE_URLS is
 * on in every test and put back after each.
 */
export function allowPrivateWebhookUrlsInTests(): void {
  const saved = process.env.WEBHOOKS_ALLOW_PRIVATE_URLS;
  beforeEach(() => {
    process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = "true";
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.WEBHOOKS_ALLOW_PRIVATE_URLS;
    else process.env.WEBHOOKS_ALLOW_PRIVATE_URLS = saved;
  });
}
