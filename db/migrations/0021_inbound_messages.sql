CREATE TABLE "inbound_messages" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"sender_id" text,
	"contact_id" text,
	"phone_number" text NOT NULL,
	"provider_message_id" text NOT NULL,
	"kind" text NOT NULL,
	"text" text,
	"payload" text,
	"media" jsonb,
	"location" jsonb,
	"reaction" jsonb,
	"context_provider_message_id" text,
	"reply_to_message_id" text,
	"campaign_id" text,
	"received_at" timestamp with time zone NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_reply_to_message_id_messages_id_fk" FOREIGN KEY ("reply_to_message_id") REFERENCES "public"."messages"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "inbound_messages" ADD CONSTRAINT "inbound_messages_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE UNIQUE INDEX "inbound_messages_workspace_provider_id_idx" ON "inbound_messages" USING btree ("workspace_id","provider_message_id");--> statement-breakpoint
CREATE INDEX "inbound_messages_contact_created_idx" ON "inbound_messages" USING btree ("contact_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "inbound_messages_campaign_created_idx" ON "inbound_messages" USING btree ("campaign_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST) WHERE campaign_id is not null;--> statement-breakpoint
CREATE INDEX "inbound_messages_reply_to_idx" ON "inbound_messages" USING btree ("reply_to_message_id") WHERE reply_to_message_id is not null;