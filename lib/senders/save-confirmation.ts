// When saving the sender settings must ask first, and what the question says: credentials whose
// connection test failed or was not run, and any change of provider or phone number (a different
// sender: the current one's queued messages fail with `sender_changed`). Pure, for the settings form.
import type { ChannelName } from "@/lib/channels/types";

export interface SenderFormState {
  /** What is saved now. */
  current: { provider: ChannelName; phoneNumberId: string | null; wabaId: string | null };
  /** What Save would store. */
  provider: ChannelName;
  phoneNumberId: string;
  wabaId: string;
  /** A newly typed access token (blank keeps the stored one). */
  accessToken: string;
  /** The last Test connection, if it was run for exactly these credentials. */
  test: { ok: boolean } | null;
  /** Messages queued or being sent by the current sender. */
  pendingMessages: number;
}

export interface SaveConfirmation {
  title: string;
  /** Why the question is asked, one paragraph each. */
  paragraphs: string[];
  confirmLabel: string;
  /** The connection test failed or was not run for the WhatsApp credentials being saved. */
  unverified: "failed" | "untested" | null;
  /** Saving makes a different sender (provider or number). */
  switching: boolean;
}

/** The key a connection test is remembered under: the credentials it tested. */
export function connectionKey(form: { phoneNumberId: string; accessToken: string }): string {
  return `${form.phoneNumberId.trim()}\n${form.accessToken.trim()}`;
}

const plural = (n: number, word: string) => `${n.toLocaleString("en-US")} ${word}${n === 1 ? "" : "s"}`;

/** Null when Save may go ahead at once. */
export function saveConfirmation(form: SenderFormState): SaveConfirmation | null {
  const { current } = form;
  const providerChange = form.provider !== current.provider;
  const numberChange = form.provider === "whatsapp" && current.provider === "whatsapp" && form.phoneNumberId.trim() !== (current.phoneNumberId ?? "");
  const switching = providerChange || numberChange;
  const credentialsChanged =
    form.provider === "whatsapp" &&
    (providerChange || numberChange || form.wabaId.trim() !== (current.wabaId ?? "") || form.accessToken.trim() !== "");
  let unverified: SaveConfirmation["unverified"] = null;
  if (form.provider === "whatsapp") {
    if (form.test && !form.test.ok) unverified = "failed";
    else if (credentialsChanged && !form.test) unverified = "untested";
  }
  if (!switching && !unverified) return null;

  const paragraphs: string[] = [];
  if (unverified === "failed") {
    paragraphs.push(
      "The connection test with these credentials failed. If you save them, messages are sent through the WhatsApp Cloud API with them anyway: they wait, retry and then fail, and the campaigns list, campaign pages and logs warn you until the sender works.",
    );
  } else if (unverified === "untested") {
    paragraphs.push(
      "These credentials have not been tested. Run Test connection first to be sure messages can go out; if they do not work, messages wait, retry and then fail.",
    );
  }
  if (switching) {
    if (form.provider === "sandbox") {
      paragraphs.push("From now on messages are simulated by the sandbox: they are logged and marked delivered, but never reach a phone.");
    } else if (providerChange) {
      paragraphs.push("From now on messages are real WhatsApp messages sent from your business number.");
    } else {
      paragraphs.push(`Messages will be sent from phone number ID ${form.phoneNumberId.trim()} instead of ${current.phoneNumberId}.`);
    }
    paragraphs.push(
      form.pendingMessages > 0
        ? `${plural(form.pendingMessages, "message")} of the current sender ${form.pendingMessages === 1 ? "is" : "are"} still queued. Queued messages are never sent by another sender: they fail with the reason “sender changed” and can be resent from the logs. A message being sent at this moment finishes through the current sender.`
        : "No messages of the current sender are queued, so none will fail.",
    );
  }

  const title =
    unverified === "failed"
      ? "Save settings that failed the connection test?"
      : unverified === "untested"
        ? "Save settings without testing the connection?"
        : form.provider === "sandbox"
          ? "Switch to the sandbox?"
          : providerChange
            ? "Switch to the WhatsApp Cloud API?"
            : "Send from another phone number?";
  const confirmLabel = unverified ? "Save anyway" : form.provider === "sandbox" ? "Switch to the sandbox" : "Switch sender";
  return { title, paragraphs, confirmLabel, unverified, switching };
}
