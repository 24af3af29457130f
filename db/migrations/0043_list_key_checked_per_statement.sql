-- hand-written (after the statement drizzle generated):
-- A membership's key to its list was a foreign key, checked once per inserted row against the same list row:
-- a million-row import inserts a million memberships of one list, each checked by a query of its own (6.8 s
-- of a 62-s merge, auto_explain; bench/RESULTS.md, "Contact import"). Triggers keep the key instead, and
-- check each distinct list once per statement:
-- - an insert locks every list it names (FOR KEY SHARE, as a foreign key does, so a list deleted meanwhile
--   either waits for the inserting transaction or is found missing) and fails with foreign_key_violation
--   when one is missing;
-- - the key never changes (an update of it fails), nor does a list's id;
-- - deleting lists deletes their memberships (ON DELETE CASCADE was the rule), once per statement.
-- Measured and not done: the same for a contact's key to its workspace (6.8 s of the same merge). Contacts
-- are inserted one at a time on the trigger and inbound paths, where the statement trigger made each
-- single-row insert 50-80 µs dearer (20,000 inserts: 1.7-1.9 s with the foreign key, 2.8-3.6 s with the
-- trigger). The membership's key to its contact stays a
-- foreign key: each membership names another contact, so a check per statement locks as many rows and saved
-- nothing (9.4 s either way).
ALTER TABLE "contact_list_members" DROP CONSTRAINT "contact_list_members_list_id_contact_lists_id_fk";--> statement-breakpoint
CREATE OR REPLACE FUNCTION contact_list_members_check_lists() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
DECLARE
  missing text;
BEGIN
  PERFORM 1 FROM contact_lists l WHERE l.id IN (SELECT list_id FROM inserted_members) FOR KEY SHARE OF l;
  SELECT i.list_id INTO missing FROM (SELECT DISTINCT list_id FROM inserted_members) i
    WHERE NOT EXISTS (SELECT 1 FROM contact_lists l WHERE l.id = i.list_id) LIMIT 1;
  IF FOUND THEN
    RAISE EXCEPTION 'insert on table "contact_list_members" violates its key to "contact_lists"'
      USING ERRCODE = 'foreign_key_violation', DETAIL = format('Key (list_id)=(%s) is not present in table "contact_lists".', missing);
  END IF;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER contact_list_members_check_lists AFTER INSERT ON contact_list_members
  REFERENCING NEW TABLE AS inserted_members FOR EACH STATEMENT EXECUTE FUNCTION contact_list_members_check_lists();
--> statement-breakpoint
CREATE OR REPLACE FUNCTION refuse_key_change() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  RAISE EXCEPTION 'column "%" of table "%" cannot change: rows of other tables refer to it, or it refers to another row', TG_ARGV[0], TG_TABLE_NAME
    USING ERRCODE = 'foreign_key_violation';
END
$$;
--> statement-breakpoint
CREATE TRIGGER contact_list_members_list_fixed BEFORE UPDATE OF list_id ON contact_list_members
  FOR EACH ROW WHEN (OLD.list_id IS DISTINCT FROM NEW.list_id) EXECUTE FUNCTION refuse_key_change('list_id');
--> statement-breakpoint
CREATE TRIGGER contact_lists_id_fixed BEFORE UPDATE OF id ON contact_lists
  FOR EACH ROW WHEN (OLD.id IS DISTINCT FROM NEW.id) EXECUTE FUNCTION refuse_key_change('id');
--> statement-breakpoint
CREATE OR REPLACE FUNCTION contact_lists_delete_members() RETURNS trigger
  LANGUAGE plpgsql
  AS $$
BEGIN
  DELETE FROM contact_list_members m USING deleted_lists d WHERE m.list_id = d.id;
  RETURN NULL;
END
$$;
--> statement-breakpoint
CREATE TRIGGER contact_lists_delete_members AFTER DELETE ON contact_lists
  REFERENCING OLD TABLE AS deleted_lists FOR EACH STATEMENT EXECUTE FUNCTION contact_lists_delete_members();
