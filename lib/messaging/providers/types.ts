export interface OutboundMessage {
  id: string;
  phoneNumber: string;
  /** `{ template: { name, language: { code }, components } }`, the Cloud API template object. */
  payload: Record<string, unknown>;
  /** Attempts so far, including the one being made. */
  attempts: number;
}

/** The workspace's sender, as the dispatcher loaded it. */
export interface SenderForSend {
  id: string;
  workspaceId: string;
  provider: "sandbox" | "whatsapp";
  phoneNumberId: string | null;
  accessTokenEncrypted: string | null;
  throughputPerSecond: number;
}

export interface SendResult {
  /** The WhatsApp message id that delivery webhooks refer to. */
  wamid: string;
}

/**
 * Sends one message. Throws `GraphApiError` (as the Cloud API client does) or `SendError` on
 * failure; `classifySendError` decides whether that is retried.
 */
export interface MessageProvider {
  send(message: OutboundMessage, sender: SenderForSend): Promise<SendResult>;
}
