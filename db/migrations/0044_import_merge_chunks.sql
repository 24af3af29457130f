CREATE TABLE "contact_import_chunks" (
	"import_id" text NOT NULL,
	"chunk" integer NOT NULL,
	"phone_from" text,
	"phone_to" text,
	"merged_at" timestamp with time zone,
	CONSTRAINT "contact_import_chunks_import_id_chunk_pk" PRIMARY KEY("import_id","chunk")
);
--> statement-breakpoint
ALTER TABLE "contact_import_chunks" ADD CONSTRAINT "contact_import_chunks_import_id_contact_imports_id_fk" FOREIGN KEY ("import_id") REFERENCES "public"."contact_imports"("id") ON DELETE cascade ON UPDATE no action;