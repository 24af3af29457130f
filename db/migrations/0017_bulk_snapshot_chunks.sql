CREATE TABLE "bulk_snapshot_chunks" (
	"campaign_id" text NOT NULL,
	"chunk" integer NOT NULL,
	"workspace_id" text NOT NULL,
	"sender_id" text NOT NULL,
	"template_name" text NOT NULL,
	"template_language" text NOT NULL,
	"id_prefix" text NOT NULL,
	"first_number" integer NOT NULL,
	"contact_ids" text[] NOT NULL,
	"phone_numbers" text[] NOT NULL,
	"kinds" smallint[] NOT NULL,
	"queued" integer NOT NULL,
	"held" integer NOT NULL,
	"skipped" integer NOT NULL,
	"launched_at" timestamp with time zone NOT NULL,
	CONSTRAINT "bulk_snapshot_chunks_campaign_id_chunk_pk" PRIMARY KEY("campaign_id","chunk")
);
--> statement-breakpoint
ALTER TABLE "bulk_snapshot_chunks" ADD CONSTRAINT "bulk_snapshot_chunks_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;