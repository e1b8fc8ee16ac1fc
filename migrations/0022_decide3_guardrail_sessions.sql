ALTER TABLE "event_sessions" ADD COLUMN "proposal_id" text;--> statement-breakpoint
ALTER TABLE "event_sessions" ADD COLUMN "adopted_ids" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "event_sessions" ADD COLUMN "minutes_to_finish" double precision;--> statement-breakpoint
-- hand-written: every stored session is queued again, so the next refresh fills the new columns from its events.
INSERT INTO "event_sessions_dirty" ("experiment_id", "unit", "session_id") SELECT "experiment_id", "unit", "session_id" FROM "event_sessions";
