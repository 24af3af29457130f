ALTER TABLE "campaigns" ADD COLUMN "audience" jsonb DEFAULT '{}'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "scheduled_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "schedule_time_zone" text;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "send_rate_per_second" integer;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "launched_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "completed_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "source" text DEFAULT 'trigger' NOT NULL;--> statement-breakpoint
CREATE UNIQUE INDEX "messages_bulk_recipient_idx" ON "messages" USING btree ("campaign_id","contact_id") WHERE source = 'bulk';