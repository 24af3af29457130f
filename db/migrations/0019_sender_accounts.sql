CREATE TABLE "sender_accounts" (
	"account" text NOT NULL,
	"sender_id" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "sender_accounts_account_sender_id_pk" PRIMARY KEY("account","sender_id")
);
--> statement-breakpoint
INSERT INTO "sender_accounts" ("account", "sender_id")
SELECT CASE WHEN s."provider" = 'whatsapp' AND s."waba_id" IS NOT NULL THEN 'waba:' || s."waba_id" ELSE 'workspace:' || s."workspace_id" END, s."id"
FROM "senders" s
ON CONFLICT DO NOTHING;
--> statement-breakpoint
-- Real sends of the last 24 hours by senders replaced before this table existed: nothing says which
-- business account they were for, so they count for the account of their workspace's sender now
-- (over-counting keeps the limit; a sandbox send never reached WhatsApp and counts for none).
INSERT INTO "sender_accounts" ("account", "sender_id")
SELECT DISTINCT CASE WHEN s."provider" = 'whatsapp' AND s."waba_id" IS NOT NULL THEN 'waba:' || s."waba_id" ELSE 'workspace:' || s."workspace_id" END, m."sender_id"
FROM "messages" m
JOIN "senders" s ON s."workspace_id" = m."workspace_id"
WHERE m."sent_at" > now() - interval '1 day'
  AND m."sender_id" IS NOT NULL
  AND m."wamid" NOT LIKE 'wamid.SANDBOX.%'
  AND NOT EXISTS (SELECT 1 FROM "senders" x WHERE x."id" = m."sender_id")
ON CONFLICT DO NOTHING;
