// The WhatsApp Cloud API channel. Everything that knows Graph API shapes, Meta's error codes and
// the webhook envelope lives in this folder; the rest of the app sees the neutral Channel contract.
import { decryptSecret } from "@/lib/crypto/secrets";
import { ChannelRequestError, ChannelSendError } from "../send-error";
import type { Channel, ChannelRequestFailure, ChannelSender } from "../types";
import { DEFAULT_THROUGHPUT_PER_SECOND, describeMessagingLimit, getPhoneNumberInfo, HIGH_THROUGHPUT_PER_SECOND, listMessageTemplates } from "./business";
import { classifyWhatsAppError, whatsappSenderTrouble } from "./errors";
import { GraphApiError, graphConfigFromEnv } from "./graph";
import { downloadWhatsAppMedia } from "./media";
import { createWhatsAppSend } from "./send";
import { createMessageTemplate } from "./templates";
import { whatsappWebhook } from "./webhook";

/** Number info and template listing: a person waits for these, so they give up sooner than a send. */
const NUMBER_INFO_TIMEOUT_MS = 10_000;
const TEMPLATES_TIMEOUT_MS = 15_000;
/** A member waits for a media preview too; a large document may take a while. */
const MEDIA_TIMEOUT_MS = 30_000;

function requestFailure(error: GraphApiError): ChannelRequestFailure {
  return { kind: error.kind, message: error.message, code: error.code, subcode: error.subcode, details: error.details, httpStatus: error.httpStatus };
}

/** Graph failures of a request other than a send become the neutral ChannelRequestError. */
async function neutral<T>(request: () => Promise<T>): Promise<T> {
  try {
    return await request();
  } catch (error) {
    if (error instanceof GraphApiError) throw new ChannelRequestError(requestFailure(error));
    throw error;
  }
}

function templateToken(sender: ChannelSender): string {
  if (!sender.account || !sender.accessTokenEncrypted) {
    throw new ChannelSendError({ class: "permanent", code: "sender_not_configured", reason: "The WhatsApp sender has no business account id or access token.", senderFault: true });
  }
  return decryptSecret(sender.accessTokenEncrypted);
}

export function createWhatsAppChannel(options: { timeoutMs?: number } = {}): Channel {
  const send = createWhatsAppSend(options);
  return {
    name: "whatsapp",
    send: (message, sender) => send(message, sender),
    classifyError: classifyWhatsAppError,
    senderTrouble: whatsappSenderTrouble,
    limits: { defaultThroughputPerSecond: DEFAULT_THROUGHPUT_PER_SECOND, maxThroughputPerSecond: HIGH_THROUGHPUT_PER_SECOND },
    listTemplates: async (_db, sender) => {
      const token = templateToken(sender);
      const remote = await neutral(() => listMessageTemplates(graphConfigFromEnv(token, TEMPLATES_TIMEOUT_MS), sender.account!));
      return remote.map(({ id, ...template }) => ({ externalId: id, ...template }));
    },
    submitTemplate: async (sender, template) => {
      const token = templateToken(sender);
      return neutral(() => createMessageTemplate(graphConfigFromEnv(token, TEMPLATES_TIMEOUT_MS), sender.account!, template));
    },
    downloadMedia: async (mediaId, sender) => {
      if (!sender.accessTokenEncrypted) {
        throw new ChannelRequestError({ kind: "http", message: "The WhatsApp number has no access token to fetch media with.", code: null, subcode: null, details: null, httpStatus: null });
      }
      let token: string;
      try {
        token = decryptSecret(sender.accessTokenEncrypted);
      } catch {
        throw new ChannelRequestError({ kind: "http", message: "The stored access token cannot be decrypted: reconnect WhatsApp in Settings.", code: null, subcode: null, details: null, httpStatus: null });
      }
      return neutral(() => downloadWhatsAppMedia(graphConfigFromEnv(token, MEDIA_TIMEOUT_MS), mediaId));
    },
    numberInfo: (address, { accessToken }) => neutral(() => getPhoneNumberInfo(graphConfigFromEnv(accessToken, NUMBER_INFO_TIMEOUT_MS), address)),
    describeMessagingLimit,
    webhook: whatsappWebhook,
  };
}

export const whatsappChannel: Channel = createWhatsAppChannel();
