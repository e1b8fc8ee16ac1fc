CREATE TYPE "public"."snapshot_kind" AS ENUM('offline', 'expert', 'online');--> statement-breakpoint
CREATE TABLE "snapshots" (
	"id" serial PRIMARY KEY NOT NULL,
	"kind" "snapshot_kind" NOT NULL,
	"parameters" jsonb NOT NULL,
	"data_window" jsonb NOT NULL,
	"result" jsonb NOT NULL,
	"sha256" text NOT NULL,
	"created_by" integer,
	"created_by_label" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "snapshots" ADD CONSTRAINT "snapshots_created_by_users_id_fk" FOREIGN KEY ("created_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;