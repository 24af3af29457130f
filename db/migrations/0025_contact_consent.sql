ALTER TABLE "contact_import_rows" ADD COLUMN "consent" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "consent_status" text DEFAULT 'unknown' NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "consent_source" text;--> statement-breakpoint
ALTER TABLE "contacts" ADD COLUMN "consent_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "contact_import_rows" DROP COLUMN "opted_out";--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_consent_status_check" CHECK ("contacts"."consent_status" in ('subscribed', 'unsubscribed', 'unknown'));--> statement-breakpoint
-- hand-written:
-- Existing contacts keep today's meaning: opted out → unsubscribed (with how and when), everyone else unknown.
UPDATE "contacts" SET "consent_status" = 'unsubscribed', "consent_at" = "opted_out_at",
  "consent_source" = CASE WHEN "opt_out_method" = 'keyword' AND "opt_out_detail" = 'STOP PROMOTIONS' THEN 'button' ELSE "opt_out_method" END
  WHERE "opted_out_at" IS NOT NULL;--> statement-breakpoint
ALTER TABLE "contacts" ADD CONSTRAINT "contacts_consent_opt_out_check" CHECK (("consent_status" = 'unsubscribed') = ("opted_out_at" IS NOT NULL));
