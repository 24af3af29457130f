ALTER TABLE "campaigns" ADD CONSTRAINT "campaigns_id_workspace_unique" UNIQUE("id","workspace_id");--> statement-breakpoint
ALTER TABLE "messages" DROP CONSTRAINT "messages_workspace_id_workspaces_id_fk";--> statement-breakpoint
ALTER TABLE "messages" DROP CONSTRAINT "messages_campaign_id_campaigns_id_fk";--> statement-breakpoint
ALTER TABLE "messages" ADD CONSTRAINT "messages_campaign_workspace_fk" FOREIGN KEY ("campaign_id","workspace_id") REFERENCES "public"."campaigns"("id","workspace_id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
DROP INDEX "messages_wamid_idx";--> statement-breakpoint
CREATE UNIQUE INDEX "messages_wamid_idx" ON "messages" USING btree ("wamid") WHERE wamid is not null;
