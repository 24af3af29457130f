ALTER TABLE "templates" ADD COLUMN "status_reason" text;--> statement-breakpoint
ALTER TABLE "templates" ADD COLUMN "submitted_at" timestamp with time zone;