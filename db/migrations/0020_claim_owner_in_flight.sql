ALTER TABLE "messages" ADD COLUMN "claim_owner" integer;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "in_flight_at" timestamp with time zone;