/** How long after the contact's last message a free-form reply may be sent: WhatsApp's customer-service window. */
export const SERVICE_WINDOW_MS = 24 * 60 * 60 * 1000;
