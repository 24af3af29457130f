// Ready journeys for the flows shops run most: the trigger fields they need and the steps after the
// trigger. Templates are the workspace's own, so a preset takes a placeholder the user replaces.
import type { Journey, JourneyStep } from "./journey";
import type { TriggerField } from "./schemas";

export interface JourneyPreset {
  id: string;
  label: string;
  description: string;
  /** The request fields the journey reads (the phone is always `phone`). */
  fields: TriggerField[];
  /** Per send step (by id): the attributes its template's blanks take, in order, when the template does not name them. */
  sendAttributes: Record<string, string[]>;
  journey: Journey;
}

const field = (name: string, required = true): TriggerField => ({ field: name, fallbacks: [], attribute: name, type: "string", required });
const send = (id: string, name: string, next: string | null): JourneyStep => ({ id, name, type: "send", templateId: "", messageConfig: { variables: [] }, senderId: null, next });
const DAY = 86_400;

export const JOURNEY_PRESETS: readonly JourneyPreset[] = [
  {
    id: "abandoned-cart",
    label: "Abandoned cart",
    description: "An hour after the cart is left, a reminder with its link; a day later, if it was not read, a second one with a code. Placing the order ends it.",
    fields: [field("first_name", false), field("cart_url"), field("cart_id")],
    sendAttributes: { reminder: ["first_name", "cart_url"], reminder_code: ["first_name", "cart_url"] },
    journey: {
      schemaVersion: 1,
      firstStepId: "wait_hour",
      steps: [
        { id: "wait_hour", name: "Wait an hour", type: "wait", wait: { kind: "duration", seconds: 3600 }, next: "reminder" },
        send("reminder", "Cart reminder", "wait_read"),
        { id: "wait_read", name: "Wait for it to be read", type: "wait_for_event", event: { kind: "read" }, timeoutSeconds: DAY, next: "if_unread", timeoutNext: "if_unread" },
        {
          id: "if_unread",
          name: "Still not read?",
          type: "branch",
          paths: [{ name: "Not read", conditions: [{ subject: { kind: "last_message_status" }, operator: "not_equals", value: "read" }], next: "reminder_code" }],
          elseNext: null,
        },
        send("reminder_code", "Reminder with a code", null),
      ],
      exitEvents: [{ kind: "event", name: "order_placed" }],
      entryEvents: [],
      reentry: { rule: "once_per_period", periodDays: 7 },
      goal: { kind: "event", name: "order_placed" },
    },
  },
  {
    id: "order-shipped",
    label: "Order shipped → review",
    description: "A delivery update, then three days later a request for a review; a reply of 5 gets the review link.",
    fields: [field("first_name", false), field("order_number"), field("tracking_id", false), field("review_url", false)],
    sendAttributes: { delivery_update: ["first_name", "order_number", "tracking_id"], ask_review: ["first_name", "order_number"], review_link: ["first_name", "review_url"] },
    journey: {
      schemaVersion: 1,
      firstStepId: "delivery_update",
      steps: [
        send("delivery_update", "Delivery update", "wait_days"),
        { id: "wait_days", name: "Wait 3 days", type: "wait", wait: { kind: "duration", seconds: 3 * DAY }, next: "ask_review" },
        send("ask_review", "Ask for a review", "wait_reply"),
        { id: "wait_reply", name: "Wait for a reply", type: "wait_for_event", event: { kind: "replied" }, timeoutSeconds: 2 * DAY, next: "if_five", timeoutNext: null },
        {
          id: "if_five",
          name: "Rated 5?",
          type: "branch",
          paths: [{ name: "Replied 5", conditions: [{ subject: { kind: "reply_text" }, operator: "equals", value: "5" }], next: "review_link" }],
          elseNext: null,
        },
        send("review_link", "Send the review link", null),
      ],
      exitEvents: [],
      entryEvents: [],
      reentry: { rule: "every_time", periodDays: null },
      goal: null,
    },
  },
];

interface PresetTemplate {
  id: string;
  status: string;
  variables: { key: string; name: string; example?: string }[];
}

/**
 * The preset's journey with a placeholder template on each send step (the first approved one), its
 * blanks mapped by name when an attribute has that name, else in order from the preset's list.
 * Returns the ids of the steps holding a placeholder, for the builder to highlight.
 */
export function applyPreset(preset: JourneyPreset, templates: readonly PresetTemplate[]): { journey: Journey; placeholders: string[] } {
  const template = templates.find((t) => t.status === "APPROVED");
  const placeholders: string[] = [];
  const steps = preset.journey.steps.map((step): JourneyStep => {
    if (step.type !== "send" || !template) return structuredClone(step);
    placeholders.push(step.id);
    const attributes = preset.sendAttributes[step.id] ?? [];
    const variables = template.variables.map((variable) => {
      const position = Number(variable.name);
      const attribute = attributes.includes(variable.name) ? variable.name : Number.isInteger(position) && position > 0 ? (attributes[position - 1] ?? null) : null;
      // A blank the preset has no attribute for keeps the template's own example, so the placeholder reads naturally.
      return { key: variable.key, attribute, fallback: attribute ? null : (variable.example ?? "…") };
    });
    return { ...step, templateId: template.id, messageConfig: { variables } };
  });
  return { journey: { ...structuredClone(preset.journey), steps }, placeholders };
}
