-- No message is written while the counts are taken and their triggers created (a write in between
-- would be counted twice or not at all); writers wait for this migration to commit.
LOCK TABLE "messages" IN SHARE MODE;
--> statement-breakpoint
CREATE TABLE "campaign_message_count_deltas" (
	"workspace_id" text NOT NULL,
	"campaign_id" text NOT NULL,
	"day" date NOT NULL,
	"status" text NOT NULL,
	"messages" integer NOT NULL,
	"replied" integer NOT NULL
);
--> statement-breakpoint
CREATE TABLE "campaign_message_counts" (
	"campaign_id" text NOT NULL,
	"workspace_id" text NOT NULL,
	"day" date NOT NULL,
	"status" text NOT NULL,
	"messages" bigint NOT NULL,
	"replied" bigint NOT NULL,
	CONSTRAINT "campaign_message_counts_campaign_id_day_status_pk" PRIMARY KEY("campaign_id","day","status")
);
--> statement-breakpoint
ALTER TABLE "campaign_message_counts" ADD CONSTRAINT "campaign_message_counts_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_message_count_deltas_scope_idx" ON "campaign_message_count_deltas" USING btree ("workspace_id","campaign_id");--> statement-breakpoint
CREATE INDEX "campaign_message_counts_workspace_idx" ON "campaign_message_counts" USING btree ("workspace_id");--> statement-breakpoint
CREATE INDEX "messages_test_idx" ON "messages" USING btree ("workspace_id","campaign_id") WHERE source = 'test';--> statement-breakpoint
-- The counts of what is stored now; from here on the triggers below keep them.
INSERT INTO "campaign_message_counts" ("campaign_id", "workspace_id", "day", "status", "messages", "replied")
SELECT campaign_id, workspace_id, (created_at AT TIME ZONE 'UTC')::date, status, count(*), count(replied_at)
FROM "messages"
WHERE campaign_id IS NOT NULL AND source IN ('trigger', 'bulk')
GROUP BY campaign_id, workspace_id, (created_at AT TIME ZONE 'UTC')::date, status;
--> statement-breakpoint
-- One delta row per campaign, day and status a statement touched (not one per message): a bulk
-- claim of a thousand rows writes two. Statement-level, so a statement that changes no counted
-- message writes nothing.
-- Inserted rows count +1, deleted ones -1 (the trigger's argument); both triggers name their
-- transition table `changed_rows`.
CREATE FUNCTION "campaign_counts_changed"() RETURNS trigger
LANGUAGE plpgsql AS $$
DECLARE
  v_sign int := TG_ARGV[0]::int;
BEGIN
  INSERT INTO campaign_message_count_deltas (workspace_id, campaign_id, day, status, messages, replied)
  SELECT workspace_id, campaign_id, (created_at AT TIME ZONE 'UTC')::date, status, v_sign * count(*), v_sign * count(replied_at)
  FROM changed_rows
  WHERE campaign_id IS NOT NULL AND source IN ('trigger', 'bulk')
  GROUP BY 1, 2, 3, 4;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
-- Each updated row's old key counted -1 and its new key +1; where nothing counted changed (a lease,
-- the attempts) the two cancel out and nothing is written. No join of the two transition tables:
-- its plan, made without statistics, went quadratic on a batch (13 s for 5,000 rows).
CREATE FUNCTION "campaign_counts_updated"() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
  INSERT INTO campaign_message_count_deltas (workspace_id, campaign_id, day, status, messages, replied)
  SELECT workspace_id, campaign_id, day, status, sum(messages), sum(replied)
  FROM (
    SELECT workspace_id, campaign_id, (created_at AT TIME ZONE 'UTC')::date AS day, status, -1 AS messages, -(replied_at IS NOT NULL)::int AS replied
    FROM old_rows WHERE campaign_id IS NOT NULL AND source IN ('trigger', 'bulk')
    UNION ALL
    SELECT workspace_id, campaign_id, (created_at AT TIME ZONE 'UTC')::date, status, 1, (replied_at IS NOT NULL)::int
    FROM new_rows WHERE campaign_id IS NOT NULL AND source IN ('trigger', 'bulk')
  ) changed
  GROUP BY 1, 2, 3, 4
  HAVING sum(messages) <> 0 OR sum(replied) <> 0;
  RETURN NULL;
END;
$$;
--> statement-breakpoint
CREATE TRIGGER "messages_counts_insert" AFTER INSERT ON "messages" REFERENCING NEW TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campaign_counts_changed('1');
--> statement-breakpoint
CREATE TRIGGER "messages_counts_update" AFTER UPDATE ON "messages" REFERENCING OLD TABLE AS old_rows NEW TABLE AS new_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campaign_counts_updated();
--> statement-breakpoint
CREATE TRIGGER "messages_counts_delete" AFTER DELETE ON "messages" REFERENCING OLD TABLE AS changed_rows
  FOR EACH STATEMENT EXECUTE FUNCTION campaign_counts_changed('-1');
