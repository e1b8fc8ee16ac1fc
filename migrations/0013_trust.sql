CREATE TABLE "server_keys" (
	"purpose" text PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "events" DROP CONSTRAINT "events_pkey";--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_pkey" PRIMARY KEY("experiment_id","event_id");
--> statement-breakpoint
-- hand-written: least privilege. The web app runs as `assay_app`, a role that reads and writes rows
-- but owns nothing, so it cannot alter a table or disable a trigger, and may only append to the audit
-- log; migrations, backup and restore run as the tables' owner. `assay_grant_app_role()` (re)grants
-- it on every table and sequence: applyMigrations calls it after each run, so tables of later
-- migrations are covered. Creating the role needs CREATEROLE: an owner without it gets a notice, and
-- an administrator creates the role (docs/security-and-operations.md) and runs `npm run db:migrate`.
CREATE OR REPLACE FUNCTION assay_grant_app_role() RETURNS void LANGUAGE plpgsql AS $$
BEGIN
  IF NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'assay_app') THEN
    BEGIN
      CREATE ROLE assay_app NOLOGIN;
    EXCEPTION WHEN insufficient_privilege THEN
      RAISE NOTICE 'Assay: the role assay_app does not exist and this role may not create it; the app runs as the owner until an administrator creates it (CREATE ROLE assay_app LOGIN PASSWORD ...) and npm run db:migrate runs again.';
      RETURN;
    WHEN duplicate_object THEN
      NULL; -- made meanwhile by a migration of another database of the cluster
    END;
  END IF;
  GRANT USAGE ON SCHEMA public TO assay_app;
  GRANT SELECT, INSERT, UPDATE, DELETE ON ALL TABLES IN SCHEMA public TO assay_app;
  GRANT USAGE, SELECT, UPDATE ON ALL SEQUENCES IN SCHEMA public TO assay_app;
  REVOKE UPDATE, DELETE, TRUNCATE ON audit_log FROM assay_app;
END $$;--> statement-breakpoint
REVOKE EXECUTE ON FUNCTION assay_grant_app_role() FROM PUBLIC;--> statement-breakpoint
SELECT assay_grant_app_role();
