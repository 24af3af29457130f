CREATE TABLE "throughput_lanes" (
	"key" text PRIMARY KEY NOT NULL,
	"next_slot_us" bigint NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messages" DROP CONSTRAINT "messages_sender_id_senders_id_fk";
--> statement-breakpoint
DROP INDEX "messages_due_idx";--> statement-breakpoint
CREATE INDEX "messages_bulk_due_idx" ON "messages" USING btree ("campaign_id","next_attempt_at") WHERE status in ('queued', 'sending') and source = 'bulk';--> statement-breakpoint
CREATE INDEX "messages_due_idx" ON "messages" USING btree ("next_attempt_at") WHERE status in ('queued', 'sending') and source <> 'bulk';