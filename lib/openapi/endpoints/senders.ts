// Endpoints of the senders area; spread into ENDPOINTS in ../registry.ts.
import { pageQuerySchema } from "@/lib/contacts/schemas";
import { createSenderSchema, deleteSenderQuerySchema, updateSenderSchema } from "@/lib/senders/schemas";
import { EXAMPLE_TIME, JSON_BODY_ERRORS, type Endpoint, type Parameter } from "../endpoint";
import { EXAMPLE_IDS, senderPageSchema, senderSchema } from "../schemas";

const senderIdParam: Parameter = { name: "id", description: "The sender's id.", schema: { type: "string" }, required: true, example: EXAMPLE_IDS.sender };

const senderExample = {
  id: EXAMPLE_IDS.sender,
  object: "sender",
  name: "Brand FR",
  provider: "whatsapp",
  isDefault: true,
  status: "connected",
  phoneNumberId: "106540352242922",
  wabaId: "102290129340398",
  displayPhoneNumber: "+33 6 12 34 56 78",
  throughputPerSecond: 80,
  messagingTier: "TIER_10K",
  messagingLimit: "10,000 customers / 24 h",
  qualityRating: "GREEN",
  configured: true,
  credentials: { accessToken: true, appSecret: true, verifyToken: true },
  createdAt: EXAMPLE_TIME,
  updatedAt: EXAMPLE_TIME,
};

const WRITES =
  "Owners and admins only, signed in to the web app: an API key is refused with 403 `admin_required` (a key acts for the whole workspace, not for a person who may manage its numbers).";

export const SENDERS_ENDPOINTS: Endpoint[] = [
  {
    operationId: "listSenders",
    method: "GET",
    path: "/api/v1/senders",
    tag: "Senders",
    summary: "List senders",
    description: "The workspace's senders, oldest first; the default one has `isDefault: true`. A workspace starts with the sandbox as its default.",
    auth: "apiKey",
    query: pageQuerySchema,
    responses: [{ status: 200, description: "One page of senders.", schema: senderPageSchema, example: { data: [senderExample], nextCursor: null } }],
    errors: ["validation_failed"],
  },
  {
    operationId: "createSender",
    method: "POST",
    path: "/api/v1/senders",
    tag: "Senders",
    summary: "Add a sender",
    description: `The sandbox, or a WhatsApp number with its phone number ID, business account ID and access token (the app secret and verify token are needed to receive its webhooks). \`isDefault: true\` makes it the default at once. Run Test connection in Settings → WhatsApp to fill in its display number, throughput and quality. ${WRITES}`,
    auth: "apiKey",
    body: {
      schema: createSenderSchema,
      strict: true,
      required: true,
      example: { provider: "whatsapp", name: "Brand FR", phoneNumberId: "106540352242922", wabaId: "102290129340398", accessToken: "EAAG…", isDefault: false },
    },
    responses: [
      {
        status: 201,
        description: "Added.",
        schema: senderSchema,
        example: { ...senderExample, isDefault: false, status: "untested", displayPhoneNumber: null, qualityRating: null, credentials: { accessToken: true, appSecret: false, verifyToken: false } },
        headers: { Location: { description: "`/api/v1/senders/{id}` of the new sender.", schema: { type: "string" }, required: true } },
      },
    ],
    errors: ["admin_required", ...JSON_BODY_ERRORS],
  },
  {
    operationId: "getSender",
    method: "GET",
    path: "/api/v1/senders/{id}",
    tag: "Senders",
    summary: "Get a sender",
    description: "The sender, without its secrets.",
    auth: "apiKey",
    pathParams: [senderIdParam],
    responses: [{ status: 200, description: "The sender.", schema: senderSchema, example: senderExample }],
    errors: ["not_found"],
  },
  {
    operationId: "updateSender",
    method: "PATCH",
    path: "/api/v1/senders/{id}",
    tag: "Senders",
    summary: "Change a sender or make it the default",
    description: `Renames it, makes it the workspace's default (\`isDefault: true\`: the previous default stops being it), or changes its connection (blank secrets keep the stored ones). A different provider or phone number is a different sender: it gets a new id, its campaigns follow, and its messages still queued fail with \`sender_changed\` (a message is never sent by another sender than the one it was queued for). ${WRITES}`,
    auth: "apiKey",
    pathParams: [senderIdParam],
    body: { schema: updateSenderSchema, strict: true, required: true, example: { name: "Brand France", isDefault: true } },
    responses: [{ status: 200, description: "The sender after the change.", schema: senderSchema, example: { ...senderExample, name: "Brand France" } }],
    errors: ["not_found", "admin_required", ...JSON_BODY_ERRORS],
  },
  {
    operationId: "deleteSender",
    method: "DELETE",
    path: "/api/v1/senders/{id}",
    tag: "Senders",
    summary: "Delete a sender",
    description: `Without \`replacement\`, the default sender (409 \`sender_is_default\`) and a sender campaigns use (409 \`sender_in_use\`, naming them) are not deleted. With \`replacement\`, that sender takes its campaigns over and, for the default, becomes the default. Its messages still queued fail with \`sender_changed\`. ${WRITES}`,
    auth: "apiKey",
    pathParams: [senderIdParam],
    query: deleteSenderQuerySchema,
    responses: [{ status: 204, description: "Deleted." }],
    errors: ["not_found", "admin_required", "validation_failed", "sender_is_default", "sender_in_use"],
    example: { query: { replacement: "snd_5TgB6yHn7uJm8IkO" } },
  },
];
