CREATE TABLE "message_status_inbox" (
	"wamid" text NOT NULL,
	"workspace_id" text NOT NULL,
	"status" text NOT NULL,
	"occurred_at" timestamp with time zone NOT NULL,
	"error_code" text,
	"error_reason" text,
	"received_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "message_status_inbox_wamid_workspace_id_status_pk" PRIMARY KEY("wamid","workspace_id","status")
);
--> statement-breakpoint
ALTER TABLE "message_status_inbox" ADD CONSTRAINT "message_status_inbox_workspace_id_workspaces_id_fk" FOREIGN KEY ("workspace_id") REFERENCES "public"."workspaces"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "message_status_inbox_received_idx" ON "message_status_inbox" USING btree ("received_at");