// The WhatsApp Cloud API send: one message (a template, or a conversation's free-form reply) per request.
import { decryptSecret } from "@/lib/crypto/secrets";
import { ChannelSendError } from "../send-error";
import type { ChannelSender, OutboundSend, SendAccepted } from "../types";
import { graphConfigFromEnv } from "./graph";
import { postGraphJson } from "./post";

/**
 * Per-request timeout. Meta aims at a median of 250 ms and under 1 % of answers past 1 s, but a
 * slow answer is still an answer: a timeout after the request was written leaves the outcome unknown
 * (the message is not sent again), so the limit is generous.
 */
export const WHATSAPP_SEND_TIMEOUT_MS = 30_000;

interface SendMessageResponse {
  messaging_product?: string;
  contacts?: { input?: string; wa_id?: string }[];
  messages?: { id?: string; message_status?: string }[];
}

/** The content kinds a payload may carry besides a template: a conversation's free-form replies. */
const FREE_FORM_KINDS = ["text", "image", "document"] as const;

/**
 * The Cloud API request body: a template message (`payload.template`), or inside the
 * customer-service window a free-form `text`, `image` or `document` (`payload.text` etc., in the
 * Cloud API's own shape, composed by lib/conversations).
 */
export function messageSendBody(message: Pick<OutboundSend, "to" | "payload">) {
  const base = { messaging_product: "whatsapp", recipient_type: "individual", to: message.to };
  const template = message.payload.template;
  if (template && typeof template === "object") return { ...base, type: "template", template };
  for (const kind of FREE_FORM_KINDS) {
    const content = message.payload[kind];
    if (content && typeof content === "object") return { ...base, type: kind, [kind]: content };
  }
  throw new ChannelSendError({ class: "permanent", code: "invalid_payload", reason: "The message has no template or content to send." });
}

export type WhatsAppSend = (message: OutboundSend, sender: ChannelSender) => Promise<SendAccepted>;

export function createWhatsAppSend(options: { timeoutMs?: number } = {}): WhatsAppSend {
  const tokens = new Map<string, { sealed: string; token: string }>();
  const tokenFor = (sender: ChannelSender): string => {
    const sealed = sender.accessTokenEncrypted!;
    const cached = tokens.get(sender.id);
    if (cached?.sealed === sealed) return cached.token;
    let token: string;
    try {
      token = decryptSecret(sealed);
    } catch {
      throw new ChannelSendError({
        class: "permanent",
        code: "sender_credentials_unreadable",
        reason: "The stored WhatsApp access token cannot be decrypted. Reconnect WhatsApp in Settings.",
        senderFault: true,
      });
    }
    tokens.set(sender.id, { sealed, token });
    return token;
  };

  return async (message, sender) => {
    if (!sender.address || !sender.accessTokenEncrypted) {
      throw new ChannelSendError({
        class: "permanent",
        code: "sender_not_configured",
        reason: "The WhatsApp sender has no phone number id or access token. Finish the setup in Settings → WhatsApp.",
        senderFault: true,
      });
    }
    const body = messageSendBody(message);
    const config = graphConfigFromEnv(tokenFor(sender), options.timeoutMs ?? WHATSAPP_SEND_TIMEOUT_MS);
    const response = await postGraphJson<SendMessageResponse>(config, `${encodeURIComponent(sender.address)}/messages`, body);
    const wamid = response.messages?.[0]?.id;
    if (typeof wamid !== "string" || wamid === "") {
      // Accepted or not, we cannot track it; retrying could send it twice.
      throw new ChannelSendError({ class: "permanent", code: "invalid_response", reason: "The WhatsApp Cloud API answered without a message id." });
    }
    return { providerMessageId: wamid };
  };
}
