import { sandboxProvider } from "./sandbox";
import type { MessageProvider, SenderForSend } from "./types";
import { createWhatsAppProvider } from "./whatsapp";

export type { MessageProvider, OutboundMessage, SenderForSend, SendResult } from "./types";

export type ProviderRegistry = Record<SenderForSend["provider"], MessageProvider>;

export function defaultProviders(): ProviderRegistry {
  return { sandbox: sandboxProvider, whatsapp: createWhatsAppProvider() };
}
