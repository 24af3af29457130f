CREATE TABLE "email_verification_tokens" (
	"id" text PRIMARY KEY NOT NULL,
	"user_id" text NOT NULL,
	"token_hash" text NOT NULL,
	"expires_at" timestamp with time zone NOT NULL,
	"used_at" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "email_verification_tokens_token_hash_unique" UNIQUE("token_hash")
);
--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "email_verified_at" timestamp with time zone;--> statement-breakpoint
ALTER TABLE "email_verification_tokens" ADD CONSTRAINT "email_verification_tokens_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "email_verification_tokens_user_idx" ON "email_verification_tokens" USING btree ("user_id");--> statement-breakpoint
-- Accounts without a password were created by an OAuth sign-in, which only a provider-verified email reaches.
UPDATE "users" SET "email_verified_at" = "created_at" WHERE "password_hash" IS NULL;--> statement-breakpoint
-- A password set through a mailed reset link proves the mailbox (and replaced whatever password was there).
UPDATE "users" u SET "email_verified_at" = t."used_at"
FROM (SELECT "user_id", max("used_at") AS "used_at" FROM "password_reset_tokens" WHERE "used_at" IS NOT NULL GROUP BY "user_id") t
WHERE t."user_id" = u."id" AND u."email_verified_at" IS NULL;
