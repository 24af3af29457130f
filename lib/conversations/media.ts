// A media reply's URL is fetched by WhatsApp, not by us: check it answers before queueing, so a
// typo fails on the form (422) instead of as a failed message minutes later. A HEAD request with a
// short timeout; private and loopback addresses are refused like event webhook URLs
// (`WEBHOOKS_ALLOW_PRIVATE_URLS` lifts that for development).
import { assertPublicHost, UnsafeWebhookUrl } from "@/lib/http/public-address";

/** The URL's problem in a sentence, or null when it answered. */
export type MediaUrlCheck = (url: string) => Promise<string | null>;

export const MEDIA_CHECK_TIMEOUT_MS = 5_000;

export const checkMediaUrl: MediaUrlCheck = async (raw) => {
  const url = new URL(raw);
  try {
    await assertPublicHost(url.hostname);
  } catch (error) {
    if (error instanceof UnsafeWebhookUrl) return error.message.replace("webhooks only go to public addresses", "WhatsApp fetches media only from public addresses");
    throw error;
  }
  try {
    const response = await fetch(url, { method: "HEAD", redirect: "follow", signal: AbortSignal.timeout(MEDIA_CHECK_TIMEOUT_MS) });
    if (!response.ok) return `The URL answered ${response.status}: WhatsApp could not fetch the file from it.`;
    return null;
  } catch {
    return `The URL did not answer within ${MEDIA_CHECK_TIMEOUT_MS / 1000} seconds (or could not be reached): WhatsApp could not fetch the file from it.`;
  }
};
