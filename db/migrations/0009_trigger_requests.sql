CREATE TABLE "trigger_requests" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"api_key_id" text,
	"key_name" text,
	"request_id" text,
	"status" integer NOT NULL,
	"dry_run" boolean DEFAULT false NOT NULL,
	"error_code" text,
	"problem" jsonb,
	"message_count" integer DEFAULT 0 NOT NULL,
	"body" text NOT NULL,
	"body_bytes" integer NOT NULL,
	"body_truncated" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "trigger_requests" ADD CONSTRAINT "trigger_requests_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "trigger_requests" ADD CONSTRAINT "trigger_requests_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trigger_requests_campaign_created_idx" ON "trigger_requests" USING btree ("campaign_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "trigger_requests_created_idx" ON "trigger_requests" USING btree ("created_at");