CREATE TABLE "campaign_sources" (
	"campaign_id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"kind" text NOT NULL,
	"topics" text[] DEFAULT '{}'::text[] NOT NULL,
	"secret_encrypted" text,
	"secret_created_at" timestamp with time zone,
	"previous_secret_encrypted" text,
	"previous_secret_expires_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "trigger_requests" ADD COLUMN "source_kind" text;--> statement-breakpoint
ALTER TABLE "trigger_requests" ADD COLUMN "topic" text;--> statement-breakpoint
ALTER TABLE "trigger_requests" ADD COLUMN "delivery_id" text;--> statement-breakpoint
ALTER TABLE "trigger_requests" ADD COLUMN "ignored_reason" text;--> statement-breakpoint
ALTER TABLE "campaign_sources" ADD CONSTRAINT "campaign_sources_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_sources" ADD CONSTRAINT "campaign_sources_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "trigger_requests_campaign_topic_idx" ON "trigger_requests" USING btree ("campaign_id","topic","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE topic is not null;