-- Snapshots are immutable: the database itself refuses to change, remove or truncate one.
CREATE FUNCTION snapshots_are_immutable() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  IF TG_LEVEL = 'STATEMENT' THEN
    RAISE EXCEPTION 'snapshots are immutable: the table cannot be truncated';
  END IF;
  RAISE EXCEPTION 'snapshots are immutable: snapshot % cannot be changed or deleted', OLD.id;
END $$;
--> statement-breakpoint
CREATE TRIGGER snapshots_immutable BEFORE UPDATE OR DELETE ON snapshots FOR EACH ROW EXECUTE FUNCTION snapshots_are_immutable();
--> statement-breakpoint
CREATE TRIGGER snapshots_no_truncate BEFORE TRUNCATE ON snapshots FOR EACH STATEMENT EXECUTE FUNCTION snapshots_are_immutable();
