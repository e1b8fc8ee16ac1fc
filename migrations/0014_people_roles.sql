ALTER TABLE "users" ADD COLUMN "roles" "role"[] DEFAULT '{}'::role[] NOT NULL;--> statement-breakpoint
-- hand-written: every existing user keeps the one role they had, now as their set of roles.
UPDATE "users" SET "roles" = ARRAY["role"];
