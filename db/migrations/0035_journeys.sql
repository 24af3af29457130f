CREATE TABLE "journey_events" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"name" text NOT NULL,
	"contact_id" text,
	"phone_number" text,
	"properties" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"runs_started" integer DEFAULT 0 NOT NULL,
	"runs_ended" integer DEFAULT 0 NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "journey_run_steps" (
	"id" text PRIMARY KEY NOT NULL,
	"run_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"step_id" text NOT NULL,
	"outcome" text NOT NULL,
	"message_id" text,
	"detail" text,
	"at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "journey_runs" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"version" integer NOT NULL,
	"contact_id" text NOT NULL,
	"phone_number" text NOT NULL,
	"status" text DEFAULT 'active' NOT NULL,
	"step_id" text,
	"due_at" timestamp with time zone,
	"wait_token" text,
	"exit_tokens" text[] DEFAULT '{}'::text[] NOT NULL,
	"context" jsonb DEFAULT '{}'::jsonb NOT NULL,
	"last_message_id" text,
	"last_reply" jsonb,
	"entry" text DEFAULT 'trigger' NOT NULL,
	"time_scale" integer DEFAULT 1 NOT NULL,
	"exit_reason" text,
	"error" text,
	"converted_at" timestamp with time zone,
	"entered_at" timestamp with time zone DEFAULT now() NOT NULL,
	"ended_at" timestamp with time zone,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "journey_versions" (
	"campaign_id" text NOT NULL,
	"version" integer NOT NULL,
	"document" jsonb NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "journey_versions_campaign_id_version_pk" PRIMARY KEY("campaign_id","version")
);
--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "journey" jsonb;--> statement-breakpoint
ALTER TABLE "campaigns" ADD COLUMN "journey_version" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "journey_run_id" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "journey_step_id" text;--> statement-breakpoint
ALTER TABLE "journey_events" ADD CONSTRAINT "journey_events_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journey_events" ADD CONSTRAINT "journey_events_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journey_run_steps" ADD CONSTRAINT "journey_run_steps_run_id_journey_runs_id_fk" FOREIGN KEY ("run_id") REFERENCES "public"."journey_runs"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journey_runs" ADD CONSTRAINT "journey_runs_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journey_runs" ADD CONSTRAINT "journey_runs_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journey_runs" ADD CONSTRAINT "journey_runs_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "journey_versions" ADD CONSTRAINT "journey_versions_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "journey_events_workspace_created_idx" ON "journey_events" USING btree ("workspace_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "journey_run_steps_run_idx" ON "journey_run_steps" USING btree ("run_id","at");--> statement-breakpoint
CREATE INDEX "journey_run_steps_campaign_step_idx" ON "journey_run_steps" USING btree ("campaign_id","step_id","outcome");--> statement-breakpoint
CREATE INDEX "journey_runs_due_idx" ON "journey_runs" USING btree ("due_at") WHERE status in ('active', 'waiting');--> statement-breakpoint
CREATE INDEX "journey_runs_contact_idx" ON "journey_runs" USING btree ("contact_id") WHERE status in ('active', 'waiting');--> statement-breakpoint
CREATE INDEX "journey_runs_wait_token_idx" ON "journey_runs" USING btree ("wait_token") WHERE status = 'waiting';--> statement-breakpoint
CREATE INDEX "journey_runs_campaign_idx" ON "journey_runs" USING btree ("campaign_id","entered_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "journey_runs_campaign_contact_idx" ON "journey_runs" USING btree ("campaign_id","contact_id","entered_at" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "messages_journey_run_idx" ON "messages" USING btree ("journey_run_id") WHERE journey_run_id is not null;