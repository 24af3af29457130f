// Demo templates every sandbox workspace gets, so a campaign can be built before connecting WhatsApp.
import type { ParameterFormat } from "./types";

export interface TemplateDefinition {
  name: string;
  language: string;
  category: "UTILITY" | "MARKETING" | "AUTHENTICATION";
  status: string;
  parameterFormat: ParameterFormat;
  components: unknown[];
}

/** The footer of the demo templates that stands for the workspace's own name. */
export const SANDBOX_SHOP_FOOTER = "Demo Shop";
const FOOTER_MAX_LENGTH = 60;

/** The demo template's components signed with the workspace's name instead of "Demo Shop". */
export function withWorkspaceFooter(components: unknown[], workspaceName: string): unknown[] {
  const footer = workspaceName.trim().slice(0, FOOTER_MAX_LENGTH) || SANDBOX_SHOP_FOOTER;
  return components.map((component) => {
    const { type, text } = component as { type?: string; text?: string };
    return type === "FOOTER" && text === SANDBOX_SHOP_FOOTER ? { ...(component as object), text: footer } : component;
  });
}

export const SANDBOX_TEMPLATES: TemplateDefinition[] = [
  {
    name: "order_confirmation",
    language: "en_US",
    category: "UTILITY",
    status: "APPROVED",
    parameterFormat: "POSITIONAL",
    components: [
      { type: "HEADER", format: "TEXT", text: "Order confirmed" },
      {
        type: "BODY",
        text: "Hi {{1}}, thanks for your order! Your order number is {{2}}. We will let you know as soon as it ships.",
        example: { body_text: [["Maria", "A-10482"]] },
      },
      { type: "FOOTER", text: SANDBOX_SHOP_FOOTER },
    ],
  },
  {
    name: "shipping_update",
    language: "en_US",
    category: "UTILITY",
    status: "APPROVED",
    parameterFormat: "NAMED",
    components: [
      {
        type: "BODY",
        text: "Good news, {{first_name}}! Your order {{order_number}} is on its way. Tap the button below to follow your parcel.",
        example: {
          body_text_named_params: [
            { param_name: "first_name", example: "Maria" },
            { param_name: "order_number", example: "A-10482" },
          ],
        },
      },
      { type: "FOOTER", text: SANDBOX_SHOP_FOOTER },
      {
        type: "BUTTONS",
        buttons: [{ type: "URL", text: "Track parcel", url: "https://shop.example.com/track/{{tracking_id}}", example: ["https://shop.example.com/track/1Z999AA1"] }],
      },
    ],
  },
  {
    name: "appointment_reminder",
    language: "en_US",
    category: "UTILITY",
    status: "APPROVED",
    parameterFormat: "POSITIONAL",
    components: [
      { type: "HEADER", format: "TEXT", text: "Reminder: {{1}}", example: { header_text: ["Dental check-up"] } },
      {
        type: "BODY",
        text: "Hi {{1}}, this is a reminder of your appointment on {{2}} at {{3}}. Reply to this message if you need to reschedule.",
        example: { body_text: [["Maria", "March 14", "10:30"]] },
      },
      { type: "FOOTER", text: "Reply STOP to opt out" },
      {
        type: "BUTTONS",
        buttons: [
          { type: "QUICK_REPLY", text: "Confirm" },
          { type: "QUICK_REPLY", text: "Reschedule" },
        ],
      },
    ],
  },
  {
    name: "spring_sale",
    language: "en_US",
    category: "MARKETING",
    status: "PENDING",
    parameterFormat: "POSITIONAL",
    components: [
      { type: "BODY", text: "Hi {{1}}, our spring sale starts today: 20% off everything with the code {{2}}.", example: { body_text: [["Maria", "SPRING20"]] } },
    ],
  },
  {
    name: "weekly_offers",
    language: "en_US",
    category: "MARKETING",
    status: "APPROVED",
    parameterFormat: "POSITIONAL",
    components: [
      { type: "BODY", text: "Hi {{1}}, this week's offers are in: take 15% off your next order.", example: { body_text: [["Maria"]] } },
      { type: "FOOTER", text: "Reply STOP to opt out" },
    ],
  },
];
