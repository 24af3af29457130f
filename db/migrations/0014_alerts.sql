CREATE TABLE "alert_settings" (
	"workspace_id" text PRIMARY KEY NOT NULL,
	"failure_rate_percent" integer DEFAULT 20 NOT NULL,
	"min_messages" integer DEFAULT 20 NOT NULL,
	"email_owners" boolean DEFAULT true NOT NULL,
	"slack_webhook_encrypted" text,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "notices" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"kind" text NOT NULL,
	"subject_id" text NOT NULL,
	"title" text NOT NULL,
	"detail" text NOT NULL,
	"href" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"resolved_at" timestamp with time zone,
	"dismissed_at" timestamp with time zone,
	"emailed_at" timestamp with time zone,
	"slack_posted_at" timestamp with time zone,
	"notify_error" text
);
--> statement-breakpoint
ALTER TABLE "alert_settings" ADD CONSTRAINT "alert_settings_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "notices" ADD CONSTRAINT "notices_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "notices_open_subject_idx" ON "notices" USING btree ("workspace_id","kind","subject_id") WHERE resolved_at is null;--> statement-breakpoint
CREATE INDEX "notices_workspace_created_idx" ON "notices" USING btree ("workspace_id","created_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "messages_failed_at_idx" ON "messages" USING btree ("failed_at") WHERE status = 'failed';