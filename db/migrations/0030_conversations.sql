CREATE TABLE "conversation_events" (
	"id" text PRIMARY KEY NOT NULL,
	"conversation_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"kind" text NOT NULL,
	"actor_user_id" text,
	"assignee_user_id" text,
	"body" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "conversations" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"contact_id" text NOT NULL,
	"sender_id" text NOT NULL,
	"status" text DEFAULT 'open' NOT NULL,
	"assignee_user_id" text,
	"campaign_id" text,
	"last_inbound_at" timestamp with time zone,
	"last_activity_at" timestamp with time zone DEFAULT now() NOT NULL,
	"last_preview" text,
	"last_direction" text,
	"unread" integer DEFAULT 0 NOT NULL,
	"closed_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "campaign_id" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "template_name" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ALTER COLUMN "template_language" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "author_user_id" text;--> statement-breakpoint
ALTER TABLE "messages" ADD COLUMN "replied_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "reply_attribution_hours" integer DEFAULT 72 NOT NULL;--> statement-breakpoint
ALTER TABLE "workspaces" ADD COLUMN "inbox_members_see_all" boolean DEFAULT true NOT NULL;--> statement-breakpoint
ALTER TABLE "conversation_events" ADD CONSTRAINT "conversation_events_conversation_id_conversations_id_fk" FOREIGN KEY ("conversation_id") REFERENCES "public"."conversations"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_events" ADD CONSTRAINT "conversation_events_actor_user_id_users_id_fk" FOREIGN KEY ("actor_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversation_events" ADD CONSTRAINT "conversation_events_assignee_user_id_users_id_fk" FOREIGN KEY ("assignee_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_contact_id_contacts_id_fk" FOREIGN KEY ("contact_id") REFERENCES "public"."contacts"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_assignee_user_id_users_id_fk" FOREIGN KEY ("assignee_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conversations" ADD CONSTRAINT "conversations_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "conversation_events_conversation_created_idx" ON "conversation_events" USING btree ("conversation_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE UNIQUE INDEX "conversations_contact_sender_idx" ON "conversations" USING btree ("workspace_id","contact_id","sender_id");--> statement-breakpoint
CREATE INDEX "conversations_workspace_activity_idx" ON "conversations" USING btree ("workspace_id","last_activity_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "conversations_assignee_activity_idx" ON "conversations" USING btree ("workspace_id","assignee_user_id","last_activity_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "conversations_unread_idx" ON "conversations" USING btree ("workspace_id") WHERE unread > 0;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_author_user_id_users_id_fk" FOREIGN KEY ("author_user_id") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "messages_campaign_replied_idx" ON "messages" USING btree ("campaign_id","replied_at") WHERE replied_at is not null;--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_campaign_unless_reply" CHECK (campaign_id is not null or source = 'reply');--> statement-breakpoint
-- message.received: every inbound message stored (a redelivery inserts nothing, so emits nothing).
CREATE FUNCTION "webhook_inbound_event"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF webhook_subscribed(NEW.workspace_id, 'message.received') THEN
    PERFORM webhook_emit_event(NEW.workspace_id, 'message.received', to_jsonb(NEW));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "inbound_messages_webhook_insert" AFTER INSERT ON "inbound_messages" FOR EACH ROW
  EXECUTE FUNCTION webhook_inbound_event();
--> statement-breakpoint
-- conversation.assigned (to a member; unassigning emits nothing) and conversation.closed.
CREATE FUNCTION "webhook_conversation_event"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_type text := CASE WHEN TG_ARGV[0] = 'closed' THEN 'conversation.closed' ELSE 'conversation.assigned' END;
BEGIN
  IF webhook_subscribed(NEW.workspace_id, v_type) THEN
    PERFORM webhook_emit_event(NEW.workspace_id, v_type, to_jsonb(NEW));
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "conversations_webhook_assigned" AFTER UPDATE OF "assignee_user_id" ON "conversations" FOR EACH ROW
  WHEN (NEW.assignee_user_id IS NOT NULL AND OLD.assignee_user_id IS DISTINCT FROM NEW.assignee_user_id)
  EXECUTE FUNCTION webhook_conversation_event('assigned');
--> statement-breakpoint
CREATE TRIGGER "conversations_webhook_assigned_insert" AFTER INSERT ON "conversations" FOR EACH ROW
  WHEN (NEW.assignee_user_id IS NOT NULL)
  EXECUTE FUNCTION webhook_conversation_event('assigned');
--> statement-breakpoint
CREATE TRIGGER "conversations_webhook_closed" AFTER UPDATE OF "status" ON "conversations" FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.status = 'closed')
  EXECUTE FUNCTION webhook_conversation_event('closed');
