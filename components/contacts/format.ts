// Display helpers shared by the contacts pages (no server imports).

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
const dateTimeFormat = new Intl.DateTimeFormat("en-US", {
  timeZone: "UTC",
  month: "short",
  day: "numeric",
  year: "numeric",
  hour: "2-digit",
  minute: "2-digit",
  hourCycle: "h23",
});

export const formatDate = (iso: string) => dateFormat.format(new Date(iso));
/** UTC, identical on the server and in every browser. */
export const formatDateTime = (iso: string) => `${dateTimeFormat.format(new Date(iso))} UTC`;
export const formatCount = (n: number) => n.toLocaleString("en-US");

export const OPT_OUT_METHOD_LABELS: Record<string, string> = {
  manual: "by hand",
  import: "by import",
  api: "through the API",
  keyword: "by replying",
};

export const CONSENT_STATUS_LABELS: Record<string, string> = {
  subscribed: "Subscribed",
  unsubscribed: "Unsubscribed",
  unknown: "Unknown",
};

export const CONSENT_SOURCE_LABELS: Record<string, string> = {
  import: "by import",
  form: "by a form",
  api: "through the API",
  keyword: "by replying",
  button: "with WhatsApp's Stop promotions button",
  manual: "by hand",
};

export const MESSAGE_STATUSES = ["queued", "sent", "delivered", "read", "failed", "skipped"] as const;

export const MESSAGE_STATUS_LABELS: Record<string, string> = {
  queued: "Queued",
  sending: "Queued",
  sent: "Sent",
  delivered: "Delivered",
  read: "Read",
  failed: "Failed",
  skipped: "Skipped",
};

export function attributeText(value: unknown): string {
  if (value === null || value === undefined || value === "") return "—";
  if (typeof value === "boolean") return value ? "Yes" : "No";
  return String(value);
}

/**
 * The one label of an attribute key wherever keys are shown: `first_name` → "First name",
 * `orderId` → "Order id", `vip` → "Vip". The key itself stays what the API and filters use.
 */
export function humanizeKey(key: string): string {
  const words = key
    .replace(/([a-z\d])([A-Z])/g, "$1 $2")
    .replace(/[_\s]+/g, " ")
    .trim()
    .toLowerCase();
  return words ? words.charAt(0).toUpperCase() + words.slice(1) : key;
}
