CREATE TABLE "webhook_deliveries" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"endpoint_id" text NOT NULL,
	"event_id" text NOT NULL,
	"status" text DEFAULT 'pending' NOT NULL,
	"attempts" integer DEFAULT 0 NOT NULL,
	"next_attempt_at" timestamp with time zone DEFAULT now() NOT NULL,
	"locked_until" timestamp with time zone,
	"last_attempt_at" timestamp with time zone,
	"response_status" integer,
	"response_ms" integer,
	"response_body" text,
	"error" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_endpoints" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"url" text NOT NULL,
	"description" text DEFAULT '' NOT NULL,
	"events" text[] NOT NULL,
	"secret_encrypted" text NOT NULL,
	"enabled" boolean DEFAULT true NOT NULL,
	"disabled_reason" text,
	"disabled_at" timestamp with time zone,
	"created_by" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "webhook_events" (
	"id" text PRIMARY KEY NOT NULL,
	"workspace_id" text NOT NULL,
	"type" text NOT NULL,
	"snapshot" jsonb NOT NULL,
	"body" text,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_endpoint_id_webhook_endpoints_id_fk" FOREIGN KEY ("endpoint_id") REFERENCES "public"."webhook_endpoints"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_deliveries" ADD CONSTRAINT "webhook_deliveries_event_id_webhook_events_id_fk" FOREIGN KEY ("event_id") REFERENCES "public"."webhook_events"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_endpoints" ADD CONSTRAINT "webhook_endpoints_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE set null ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "webhook_events" ADD CONSTRAINT "webhook_events_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "webhook_deliveries_due_idx" ON "webhook_deliveries" USING btree ("next_attempt_at") WHERE status = 'pending';--> statement-breakpoint
CREATE INDEX "webhook_deliveries_endpoint_created_idx" ON "webhook_deliveries" USING btree ("endpoint_id","created_at" DESC NULLS LAST,"id" DESC NULLS LAST);--> statement-breakpoint
CREATE INDEX "webhook_endpoints_workspace_idx" ON "webhook_endpoints" USING btree ("workspace_id","created_at");--> statement-breakpoint
CREATE INDEX "webhook_events_workspace_created_idx" ON "webhook_events" USING btree ("workspace_id","created_at");--> statement-breakpoint
-- Events are written by triggers, in the transaction of the change itself, so every path that
-- changes a message, a campaign or a contact emits them and none can forget to. When no enabled
-- endpoint of the workspace subscribes to the type, nothing is written.
CREATE FUNCTION "webhook_subscribed"(p_workspace_id text, p_type text) RETURNS boolean
LANGUAGE sql STABLE AS $$
  SELECT EXISTS (
    SELECT 1 FROM webhook_endpoints e WHERE e.workspace_id = p_workspace_id AND e.enabled AND p_type = ANY (e.events)
  );
$$;
--> statement-breakpoint
-- Called only after webhook_subscribed said yes: the snapshot is built only when someone listens.
CREATE FUNCTION "webhook_emit_event"(p_workspace_id text, p_type text, p_snapshot jsonb) RETURNS void
LANGUAGE plpgsql AS $$
DECLARE
  v_event_id text := 'evt_' || replace(gen_random_uuid()::text, '-', '');
BEGIN
  INSERT INTO webhook_events (id, workspace_id, type, snapshot) VALUES (v_event_id, p_workspace_id, p_type, p_snapshot);
  INSERT INTO webhook_deliveries (id, workspace_id, endpoint_id, event_id)
    SELECT 'whd_' || replace(gen_random_uuid()::text, '-', ''), p_workspace_id, e.id, v_event_id
    FROM webhook_endpoints e
    WHERE e.workspace_id = p_workspace_id AND e.enabled AND p_type = ANY (e.events);
END;
$$;
--> statement-breakpoint
CREATE FUNCTION "webhook_message_event"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF webhook_subscribed(NEW.workspace_id, 'message.' || NEW.status) THEN
    PERFORM webhook_emit_event(NEW.workspace_id, 'message.' || NEW.status, to_jsonb(NEW) - 'payload' - 'locked_until');
  END IF;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "messages_webhook_insert" AFTER INSERT ON "messages" FOR EACH ROW
  WHEN (NEW.status = 'skipped')
  EXECUTE FUNCTION webhook_message_event();
--> statement-breakpoint
CREATE TRIGGER "messages_webhook_update" AFTER UPDATE OF "status" ON "messages" FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.status IN ('sent', 'delivered', 'read', 'failed', 'skipped'))
  EXECUTE FUNCTION webhook_message_event();
--> statement-breakpoint
CREATE FUNCTION "webhook_campaign_event"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT webhook_subscribed(NEW.workspace_id, 'campaign.completed') THEN
    RETURN NULL;
  END IF;
  PERFORM webhook_emit_event(
    NEW.workspace_id,
    'campaign.completed',
    jsonb_build_object(
      'id', NEW.id, 'name', NEW.name, 'kind', NEW.kind, 'status', NEW.status,
      'launched_at', NEW.launched_at, 'completed_at', NEW.completed_at,
      'counts', (
        SELECT coalesce(jsonb_object_agg(c.status, c.n), '{}'::jsonb)
        FROM (SELECT m.status, count(*) AS n FROM messages m WHERE m.campaign_id = NEW.id GROUP BY m.status) c
      )
    )
  );
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "campaigns_webhook_completed" AFTER UPDATE OF "status" ON "campaigns" FOR EACH ROW
  WHEN (OLD.status IS DISTINCT FROM NEW.status AND NEW.status = 'completed')
  EXECUTE FUNCTION webhook_campaign_event();
--> statement-breakpoint
CREATE FUNCTION "webhook_contact_event"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  IF NOT webhook_subscribed(NEW.workspace_id, 'contact.opted_out') THEN
    RETURN NULL;
  END IF;
  PERFORM webhook_emit_event(
    NEW.workspace_id,
    'contact.opted_out',
    jsonb_build_object(
      'id', NEW.id, 'phone_number', NEW.phone_number, 'name', NEW.name,
      'opted_out_at', NEW.opted_out_at, 'opt_out_method', NEW.opt_out_method, 'opt_out_detail', NEW.opt_out_detail
    )
  );
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "contacts_webhook_opted_out_update" AFTER UPDATE OF "opted_out_at" ON "contacts" FOR EACH ROW
  WHEN (OLD.opted_out_at IS NULL AND NEW.opted_out_at IS NOT NULL)
  EXECUTE FUNCTION webhook_contact_event();
--> statement-breakpoint
CREATE TRIGGER "contacts_webhook_opted_out_insert" AFTER INSERT ON "contacts" FOR EACH ROW
  WHEN (NEW.opted_out_at IS NOT NULL)
  EXECUTE FUNCTION webhook_contact_event();
