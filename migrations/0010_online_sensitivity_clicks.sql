CREATE TYPE "public"."experiment_kind" AS ENUM('ab', 'interleaving');--> statement-breakpoint
ALTER TYPE "public"."snapshot_kind" ADD VALUE 'clicks';--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "teams" text[];--> statement-breakpoint
ALTER TABLE "experiments" ADD COLUMN "kind" "experiment_kind" DEFAULT 'ab' NOT NULL;