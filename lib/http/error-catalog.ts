// Every problem `code` the service answers with. The code alone decides the status and the title
// (ApiError takes nothing else), and problem `type`s point at `/docs/api#error-<code>`, where the
// docs page renders this catalog.
export interface ErrorEntry {
  code: string;
  status: number;
  title: string;
  /** What happened and what to do about it. */
  description: string;
  /**
   * Who meets it besides API clients: `web_app` (only the signed-in web app's routes answer with
   * it) or `platform` (Meta's webhook handshake, the scheduler's cron call).
   */
  audience?: "web_app" | "platform";
}

export const ERROR_CATALOG = [
  { code: "bad_request", status: 400, title: "Bad request", description: "The request cannot be processed as sent; the detail says why." },
  { code: "malformed_json", status: 400, title: "Malformed JSON", description: "The body is empty, not UTF-8 or not valid JSON. Send a well-formed JSON document." },
  {
    code: "conflicting_api_keys",
    status: 400,
    title: "Bad request",
    description: "Both `x-api-key` and `Authorization: Bearer` were sent with different keys. Send one of them.",
  },
  {
    code: "invalid_idempotency_key",
    status: 400,
    title: "Bad request",
    description: "The `Idempotency-Key` header is blank, longer than 255 characters or not printable ASCII. A UUID works well.",
  },
  {
    code: "unauthorized",
    status: 401,
    title: "Unauthorized",
    description:
      "The API key is missing, malformed, unknown or deleted (one identical answer for all four, with `WWW-Authenticate: Bearer realm=\"sendstream\"`). Create a key under Settings → API Keys.",
  },
  {
    code: "unauthenticated",
    status: 401,
    title: "Unauthenticated",
    description:
      "The session expired or is missing: sign in again. (The cron route answers it too when `Authorization: Bearer <CRON_SECRET>` is missing or wrong.)",
    audience: "web_app",
  },
  {
    code: "cross_site_request",
    status: 403,
    title: "Cross-site request refused",
    description: "A session-authenticated change came from another site. Only the Sendstream web app may call these routes.",
    audience: "web_app",
  },
  {
    code: "insufficient_scope",
    status: 403,
    title: "Insufficient scope",
    description:
      "The API key is trigger-only: it may call `POST /api/campaigns/{id}/trigger` (and `/outbound/{id}`) for the campaigns it was created for, and `GET /api/v1/me`, nothing else. Use a full-access key, or create a key for this campaign.",
  },
  {
    code: "admin_required",
    status: 403,
    title: "Owners and admins only",
    description:
      "A member of the workspace may build campaigns and read message logs, but only an owner or an admin may manage API keys, senders, webhooks, alerts and members, or read the audit log and trigger request bodies. API keys may read senders but never change them: an owner or an admin does that signed in to the web app.",
  },
  { code: "already_member", status: 409, title: "Conflict", description: "The address invited already belongs to a member of the workspace.", audience: "web_app" },
  { code: "owner_protected", status: 409, title: "Conflict", description: "The change would take the owner out of the workspace, or leave a user without any workspace.", audience: "web_app" },
  { code: "invitation_used", status: 410, title: "Gone", description: "The invitation was accepted or withdrawn already; each link works once.", audience: "web_app" },
  { code: "invitation_expired", status: 410, title: "Gone", description: "The invitation is older than 7 days.", audience: "web_app" },
  { code: "invitation_other_account", status: 403, title: "Forbidden", description: "The invitation is for another email address than the signed-in account's.", audience: "web_app" },
  { code: "owner_required", status: 403, title: "Owner only", description: "Only the workspace's owner may make this change (renaming the workspace, dismissing the owners' alerts).", audience: "web_app" },
  {
    code: "not_found",
    status: 404,
    title: "Not found",
    description: "Nothing with this id exists in the API key's workspace. Another workspace's resources answer exactly like missing ones.",
  },
  { code: "method_not_allowed", status: 405, title: "Method not allowed", description: "The path exists but not with this method. The `Allow` header lists the methods it supports." },
  {
    code: "campaign_not_editable",
    status: 409,
    title: "Conflict",
    description:
      "The campaign cannot be changed in its current status: archived campaigns are read-only, and bulk campaigns change only while draft or scheduled. (Changes to an active trigger campaign go into its draft revision instead.)",
  },
  {
    code: "nothing_to_publish",
    status: 409,
    title: "Nothing to publish",
    description: "The campaign has no draft revision: change the active campaign with `PATCH` first, then publish.",
  },
  {
    code: "template_blocked",
    status: 409,
    title: "Template paused or disabled",
    description: "WhatsApp paused or disabled the campaign's template: its campaign stays paused until the template is approved again (or the campaign is cancelled).",
  },
  {
    code: "invalid_status_transition",
    status: 409,
    title: "Conflict",
    description: "The lifecycle action does not apply to the campaign's current status (for example deploying an active campaign or resuming an archived one).",
  },
  {
    code: "version_conflict",
    status: 409,
    title: "Conflict",
    description: "The `version` you sent is not the campaign's current version: it changed in the meantime. Fetch it again (`currentVersion` is in the body) and retry.",
  },
  {
    code: "campaign_not_active",
    status: 409,
    title: "Campaign not active",
    description: "Trigger requests are only accepted while the campaign is active. Deploy a draft or resume a paused campaign. Nothing was sent.",
  },
  {
    code: "not_a_bulk_campaign",
    status: 409,
    title: "Not a bulk campaign",
    description: "Audiences, test sends, launch, schedule, cancel, progress and retargeting are for bulk campaigns; a trigger campaign sends when its webhook is called.",
  },
  {
    code: "source_not_signed",
    status: 409,
    title: "Source not signed",
    description: "The campaign is called with API keys, which need no signing secret. Choose a signed source (PUT /api/v1/campaigns/{id}/source) first.",
  },
  { code: "not_a_trigger_campaign", status: 409, title: "Not a trigger campaign", description: "Bulk campaigns do not accept trigger requests. Nothing was sent." },
  {
    code: "campaign_not_sendable",
    status: 409,
    title: "Campaign cannot send",
    description: "The campaign's template is no longer approved or the workspace has no sender. Fix the campaign; nothing was sent.",
  },
  {
    code: "idempotency_conflict",
    status: 409,
    title: "Request in progress",
    description: "Another request with the same `Idempotency-Key` is still being processed. Retry after `Retry-After` seconds.",
  },
  {
    code: "import_file_already_sent",
    status: 409,
    title: "Conflict",
    description: "The import already has its file (stored, being merged or finished). Create a new import to load another file.",
  },
  { code: "contact_exists", status: 409, title: "Contact exists", description: "The workspace already has a contact with this phone number (sent with `ifExists: \"error\"`). Open that contact, or send without `ifExists` to update it." },
  { code: "run_not_active", status: 409, title: "Run not active", description: "The journey run is over already (completed, exited, ended or failed): there is nothing to end." },
  { code: "list_name_taken", status: 409, title: "Conflict", description: "The workspace already has a list with this name. Pick another name or add the contacts to that list." },
  { code: "segment_name_taken", status: 409, title: "Conflict", description: "The workspace already has a segment with this name. Pick another name or change that segment." },
  {
    code: "attribute_type_conflict",
    status: 409,
    title: "Conflict",
    description: "The attribute is already defined with another type. Its stored values follow that type; use a new key for the new type.",
  },
  {
    code: "sender_is_default",
    status: 409,
    title: "Default sender",
    description: "The sender is the workspace's default. Make another sender the default first, or delete it with `?replacement=<sender id>`: that sender becomes the default and takes its campaigns over.",
  },
  {
    code: "sender_in_use",
    status: 409,
    title: "Sender in use",
    description: "Campaigns send through this sender (the detail names them). Give them another sender, or delete it with `?replacement=<sender id>`, which moves them to that sender.",
  },
  { code: "sender_not_configured", status: 409, title: "WhatsApp is not connected", description: "WhatsApp credentials are missing. Finish Settings → WhatsApp.", audience: "web_app" },
  {
    code: "sandbox_only",
    status: 409,
    title: "Sandbox only",
    description: "Simulated replies are for the sandbox sender. With WhatsApp connected, real replies arrive on the webhook.",
    audience: "web_app",
  },
  {
    code: "window_closed",
    status: 409,
    title: "Customer-service window closed",
    description:
      "Free-form replies (text, image, document) can only be sent within 24 hours of the contact's last message (`windowEndsAt` says when it closed, null when the contact never wrote). Send an approved template instead; the window opens again when the contact answers.",
  },
  {
    code: "auto_reply_exists",
    status: 409,
    title: "Auto-reply exists",
    description: "The number already answers this keyword automatically: change that auto-reply instead.",
    audience: "web_app",
  },
  {
    code: "saved_reply_exists",
    status: 409,
    title: "Saved reply exists",
    description: "The workspace already has a saved reply with this name.",
    audience: "web_app",
  },
  {
    code: "sender_replaced",
    status: 409,
    title: "Number replaced",
    description: "The conversation's number was replaced or deleted, so nothing can be sent from it. The contact's next message opens a conversation on the current number.",
  },
  {
    code: "contact_opted_out",
    status: 409,
    title: "Contact opted out",
    description: "The contact opted out of marketing messages, so a marketing template is not sent to them. Answer with a free-form reply inside the customer-service window, or a utility template.",
  },
  { code: "api_key_limit_reached", status: 409, title: "Conflict", description: "The workspace has as many API keys as it may have. Delete one first.", audience: "web_app" },
  { code: "webhook_endpoint_limit_reached", status: 409, title: "Conflict", description: "The workspace has as many webhook endpoints as it may have. Delete one first.", audience: "web_app" },
  { code: "webhook_endpoint_disabled", status: 409, title: "Conflict", description: "The webhook endpoint is switched off; switch it on before sending to it.", audience: "web_app" },
  { code: "account_exists", status: 409, title: "Account exists", description: "An account with this email already exists. Sign in instead.", audience: "web_app" },
  {
    code: "payload_too_large",
    status: 413,
    title: "Payload too large",
    description: "The body is over the limit: 64 KiB for a JSON object (1 MiB for a trigger array or a bulk contact array, 200 MiB for an import's CSV file).",
  },
  {
    code: "length_required",
    status: 411,
    title: "Length required",
    description: "Sign-in requests (`/api/auth/*`) must declare their size with `Content-Length` (browsers always do); a body of unknown length is refused before it is read.",
    audience: "web_app",
  },
  { code: "unsupported_media_type", status: 415, title: "Unsupported media type", description: "Send the body as JSON with `Content-Type: application/json`." },
  {
    code: "validation_failed",
    status: 422,
    title: "Validation failed",
    description:
      "The body or a parameter is not valid: a wrong type, a missing required field, a phone number that is not E.164, an unknown field or an unrenderable template variable. `errors[]` lists each problem with its `path`.",
  },
  {
    code: "deploy_checks_failed",
    status: 422,
    title: "The campaign is not ready",
    description:
      "Deploying (or resuming) found problems: no phone mapping, no approved template, an unmapped template variable or no sender. `errors[]` lists every failing check; paths start with `trigger`, `message` or `sender`.",
  },
  {
    code: "launch_checks_failed",
    status: 422,
    title: "The campaign cannot be launched",
    description:
      "Launching or scheduling a bulk campaign found problems: no approved template, an unmapped variable, an empty audience, a send rate above the sender's throughput, no sender, or an audience above what is left of the daily messaging limit of the sender's WhatsApp business account (launch with `allowTierWait` to send the rest as the limit frees up). Launches on one business account are checked one after another, each counting what the ones before it queued. `errors[]` lists every failing check.",
  },
  {
    code: "idempotency_key_reused",
    status: 422,
    title: "Idempotency key reused",
    description: "The `Idempotency-Key` was already used on this campaign within 24 hours with a different body. Use a new key for a new request.",
  },
  {
    code: "rate_limited",
    status: 429,
    title: "Too many requests",
    description: "The API key's or the campaign's per-minute request limit is used up. Wait `Retry-After` seconds; `RateLimit` and `RateLimit-Policy` describe the limits.",
  },
  {
    code: "too_many_failed_authentications",
    status: 429,
    title: "Too many failed authentications",
    description:
      "Too many requests from this address presented an invalid API key within a minute. Wait `Retry-After` seconds and check the key; the limit counts failures per client address, never against a workspace.",
  },
  {
    code: "internal_error",
    status: 500,
    title: "Internal server error",
    description: "Something failed on our side and was logged. Retry, or contact support with the `requestId` from the body.",
  },
  {
    code: "template_exists",
    status: 409,
    title: "Template name taken",
    description: "The sender's account already has a template with this name in this language. Choose another name.",
  },
  {
    code: "template_refused",
    status: 422,
    title: "WhatsApp refused the template",
    description: "WhatsApp did not accept the template for review; the detail carries its words and error code. Nothing was stored.",
  },
  { code: "graph_error", status: 502, title: "WhatsApp refused the template sync", description: "The WhatsApp Graph API refused a request; the detail carries its error code.", audience: "web_app" },
  {
    code: "invalid_signature",
    status: 401,
    title: "Invalid signature",
    description:
      "A delivery to a trigger campaign with a signed source (Shopify, WooCommerce, Stripe or Standard Webhooks) whose signature is missing, does not match the raw body under the source's secret, or was made more than 5 minutes from now: nothing was sent, and the call is in the campaign's request log. (WhatsApp webhook deliveries without a valid `X-Hub-Signature-256` get it too: nothing was applied.)",
  },
  {
    code: "verification_failed",
    status: 403,
    title: "Verification failed",
    description: "Meta's webhook handshake sent a `hub.verify_token` that no connected WhatsApp sender uses. Copy the verify token from Settings → WhatsApp.",
    audience: "platform",
  },
  {
    code: "cron_not_configured",
    status: 503,
    title: "Cron not configured",
    description: "`/api/cron/dispatch` needs `CRON_SECRET` set in the environment before it runs.",
    audience: "platform",
  },
  { code: "service_unavailable", status: 503, title: "Service unavailable", description: "The database is temporarily unreachable. Retry after `Retry-After` seconds." },
] as const satisfies readonly ErrorEntry[];

export type ErrorCode = (typeof ERROR_CATALOG)[number]["code"];

/** The codes that answer with one status, e.g. `ErrorCodeWithStatus<409>`. */
export type ErrorCodeWithStatus<S extends number> = Extract<(typeof ERROR_CATALOG)[number], { status: S }>["code"];

const ENTRIES = new Map<string, ErrorEntry>(ERROR_CATALOG.map((entry) => [entry.code, entry]));

export function errorEntry(code: ErrorCode): ErrorEntry {
  return ENTRIES.get(code)!;
}

/** Answered by every key-authenticated endpoint. */
export const COMMON_API_ERRORS: ErrorCode[] = [
  "unauthorized",
  "conflicting_api_keys",
  "insufficient_scope",
  "method_not_allowed",
  "too_many_failed_authentications",
  "internal_error",
  "service_unavailable",
];
