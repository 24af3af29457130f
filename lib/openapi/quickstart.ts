// The docs page's quick start: create a key → configure and deploy a campaign → trigger it → read its logs.
// Commands use shell variables, so each step can be pasted as it is after the previous one.
import { curlCommand } from "./curl";

export interface QuickStartStep {
  id: string;
  title: string;
  /** Plain text with `code` spans. */
  text: string;
  /** Shell commands to paste, in order. */
  commands: { label: string; code: string }[];
  /** What to take from the response for the next step. */
  then?: string;
}

export const QUICK_START_CAMPAIGN = {
  triggerConfig: {
    phoneField: "phone",
    fields: [
      { field: "first_name", attribute: "name", type: "string", required: false },
      { field: "order", attribute: "order_id", type: "string", required: true },
    ],
  },
  templateId: "$TEMPLATE_ID",
  messageConfig: {
    variables: [
      { key: "body.1", attribute: "name", fallback: "there" },
      { key: "body.2", attribute: "order_id", fallback: null },
    ],
  },
};

export function quickStartSteps(baseUrl: string): QuickStartStep[] {
  return [
    {
      id: "quick-start-key",
      title: "Create an API key",
      text: "In the app, open Settings → API Keys and choose Create API key. The key (`ss_…`) is shown once: copy it into your shell, then check that it works.",
      commands: [
        { label: "Set the API key", code: "export SENDSTREAM_API_KEY='ss_your_key_here'" },
        { label: "Check the key", code: curlCommand("GET", "/api/v1/me", { baseUrl }) },
      ],
    },
    {
      id: "quick-start-template",
      title: "Pick a template",
      text: "List the templates your sender can use. A new workspace sends through the sandbox, which comes with demo templates such as `order_confirmation` (variables `body.1` and `body.2`).",
      commands: [{ label: "List templates", code: curlCommand("GET", "/api/v1/templates", { baseUrl }) }],
      then: "Copy the `id` of `order_confirmation`: `export TEMPLATE_ID=tpl_…`",
    },
    {
      id: "quick-start-campaign",
      title: "Create, map and deploy a campaign",
      text: "Create a draft, map the request fields to contact attributes and the template variables to attributes (or fallbacks), then deploy it. Deploy answers 422 with every failing check if something is missing.",
      commands: [
        { label: "Create a campaign", code: curlCommand("POST", "/api/v1/campaigns", { baseUrl, body: { name: "Order confirmation" } }) },
        {
          label: "Map fields and variables",
          code: curlCommand("PATCH", "/api/v1/campaigns/{id}", { baseUrl, path: { id: "$CAMPAIGN_ID" }, body: QUICK_START_CAMPAIGN }),
        },
        { label: "Deploy the campaign", code: curlCommand("POST", "/api/v1/campaigns/{id}/deploy", { baseUrl, path: { id: "$CAMPAIGN_ID" } }) },
      ],
      then: "After the first command, copy the campaign's `id`: `export CAMPAIGN_ID=cmp_…`",
    },
    {
      id: "quick-start-trigger",
      title: "Trigger it",
      text: "Send one recipient (or an array of up to 100). The message is queued and sent right away; the response's `Location` is the message.",
      commands: [
        {
          label: "Trigger the campaign",
          code: curlCommand("POST", "/api/campaigns/{id}/trigger", {
            baseUrl,
            path: { id: "$CAMPAIGN_ID" },
            body: { phone: "+14155552671", first_name: "Maria", order: "A-10482" },
          }),
        },
      ],
    },
    {
      id: "quick-start-logs",
      title: "Read its logs",
      text: "Follow the message from `queued` to `sent`, `delivered` and `read`, or export the campaign's logs as CSV.",
      commands: [
        { label: "List the campaign's messages", code: curlCommand("GET", "/api/v1/campaigns/{id}/messages", { baseUrl, path: { id: "$CAMPAIGN_ID" } }) },
        {
          label: "Export the logs as CSV",
          code: `${curlCommand("GET", "/api/v1/campaigns/{id}/logs.csv", { baseUrl, path: { id: "$CAMPAIGN_ID" } })} \\\n  -o logs.csv`,
        },
      ],
    },
  ];
}
