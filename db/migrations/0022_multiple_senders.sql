-- Several senders per workspace: the existing one becomes the workspace's default, named after its
-- number (or "Sandbox"); campaigns name their sender (the default for every existing one); templates
-- belong to a business account. Columns are added with defaults and backfilled before the old
-- one-sender constraint and the old template key go. The campaigns' foreign key is added NOT VALID
-- and validated apart, so writes to campaigns are not blocked while existing rows are checked.
ALTER TABLE "senders" ADD COLUMN "name" text DEFAULT 'WhatsApp' NOT NULL;--> statement-breakpoint
ALTER TABLE "senders" ADD COLUMN "is_default" boolean DEFAULT false NOT NULL;--> statement-breakpoint
ALTER TABLE "senders" ADD COLUMN "quality_rating" text;--> statement-breakpoint
ALTER TABLE "senders" ADD COLUMN "status" text DEFAULT 'untested' NOT NULL;--> statement-breakpoint
UPDATE "senders" SET
  "is_default" = true,
  "name" = CASE WHEN "provider" = 'sandbox' THEN 'Sandbox' ELSE coalesce("display_phone_number", 'WhatsApp ' || "phone_number_id", 'WhatsApp') END,
  "status" = CASE WHEN "provider" = 'sandbox' OR "display_phone_number" IS NOT NULL THEN 'connected' ELSE 'untested' END;--> statement-breakpoint
CREATE INDEX "senders_workspace_idx" ON "senders" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE UNIQUE INDEX "senders_workspace_default_idx" ON "senders" USING btree ("workspace_id") WHERE is_default;--> statement-breakpoint
ALTER TABLE "senders" DROP CONSTRAINT "senders_workspace_id_unique";--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "sender_id" text;--> statement-breakpoint
UPDATE "campaigns" c SET "sender_id" = s."id" FROM "senders" s WHERE s."workspace_id" = c."workspace_id" AND s."is_default";--> statement-breakpoint
ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_sender_id_senders_id_fk" FOREIGN KEY ("sender_id") REFERENCES "public"."senders"("id") ON DELETE no action ON UPDATE cascade NOT VALID;--> statement-breakpoint
ALTER TABLE "campaigns" VALIDATE CONSTRAINT "campaigns_sender_id_senders_id_fk";--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "account" text DEFAULT '' NOT NULL;--> statement-breakpoint
UPDATE "templates" t SET "account" = CASE
    WHEN t."external_id" LIKE 'sandbox:%' THEN 'sandbox'
    ELSE coalesce((SELECT 'waba:' || s."waba_id" FROM "senders" s WHERE s."workspace_id" = t."workspace_id" AND s."waba_id" IS NOT NULL LIMIT 1), '')
  END;--> statement-breakpoint
CREATE UNIQUE INDEX "templates_workspace_account_name_language_idx" ON "templates" USING btree ("workspace_id","account","name","language");--> statement-breakpoint
DROP INDEX "templates_workspace_name_language_idx";
