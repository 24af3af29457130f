ALTER TABLE "campaigns" ADD COLUMN "allow_tier_wait" boolean DEFAULT false NOT NULL;--> statement-breakpoint
CREATE INDEX "messages_bulk_campaign_status_idx" ON "messages" USING btree ("campaign_id","status","sent_at") WHERE source = 'bulk';--> statement-breakpoint
CREATE INDEX "messages_sender_sent_idx" ON "messages" USING btree ("sender_id","sent_at") WHERE sent_at is not null;