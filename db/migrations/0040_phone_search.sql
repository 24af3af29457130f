-- Trigrams for the logs' phone search (`phone_number like '%digits%'`, lib/logs/query.ts). pg_trgm ships with
-- Postgres and is a trusted extension: the database's owner may create it. The index is built while writes to
-- `messages` wait (ten million numbers: 20 s on 2 cores, plus reading the table).
CREATE EXTENSION IF NOT EXISTS pg_trgm;
--> statement-breakpoint
CREATE INDEX IF NOT EXISTS "messages_phone_trgm_idx" ON "messages" USING gin ("phone_number" gin_trgm_ops);
