-- Staged import rows without a foreign key to their job: the key was checked once per row, about 4.6 s of an
-- 8 s COPY of a million rows (bench/RESULTS.md, "Contact import"). Rows are staged only for a job the upload
-- has claimed (lib/imports/store.ts), and the cascade the key gave (deleting a job, or its workspace, deletes
-- its staged rows) is kept by a trigger that runs once per deleted job.
ALTER TABLE "contact_import_rows" DROP CONSTRAINT IF EXISTS "contact_import_rows_import_id_contact_imports_id_fk";
--> statement-breakpoint
CREATE OR REPLACE FUNCTION contact_imports_delete_rows() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  DELETE FROM contact_import_rows WHERE import_id = OLD.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
DROP TRIGGER IF EXISTS contact_imports_delete_rows ON contact_imports;
--> statement-breakpoint
CREATE TRIGGER contact_imports_delete_rows AFTER DELETE ON contact_imports FOR EACH ROW EXECUTE FUNCTION contact_imports_delete_rows();
