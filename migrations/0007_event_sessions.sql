CREATE TABLE "event_ids" (
	"experiment_id" integer NOT NULL,
	"kind" text NOT NULL,
	"external_id" text NOT NULL,
	CONSTRAINT "event_ids_experiment_id_kind_external_id_pk" PRIMARY KEY("experiment_id","kind","external_id")
);
--> statement-breakpoint
CREATE TABLE "event_sessions" (
	"experiment_id" integer NOT NULL,
	"unit" text NOT NULL,
	"session_id" text NOT NULL,
	"arms" text[] DEFAULT '{}' NOT NULL,
	"arm_events" integer[] DEFAULT '{}' NOT NULL,
	"events" integer DEFAULT 0 NOT NULL,
	"first_at" timestamp with time zone,
	"impressions" integer DEFAULT 0 NOT NULL,
	"shown" integer DEFAULT 0 NOT NULL,
	"clicked" integer DEFAULT 0 NOT NULL,
	"adopted" integer DEFAULT 0 NOT NULL,
	"adopted_rank_sum" integer DEFAULT 0 NOT NULL,
	"unshown_events" integer DEFAULT 0 NOT NULL,
	CONSTRAINT "event_sessions_experiment_id_unit_session_id_pk" PRIMARY KEY("experiment_id","unit","session_id")
);
--> statement-breakpoint
CREATE TABLE "event_sessions_dirty" (
	"experiment_id" integer NOT NULL,
	"unit" text NOT NULL,
	"session_id" text NOT NULL
);
--> statement-breakpoint
ALTER TABLE "event_ids" ADD CONSTRAINT "event_ids_experiment_id_experiments_id_fk" FOREIGN KEY ("experiment_id") REFERENCES "public"."experiments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_sessions" ADD CONSTRAINT "event_sessions_experiment_id_experiments_id_fk" FOREIGN KEY ("experiment_id") REFERENCES "public"."experiments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "event_sessions_dirty" ADD CONSTRAINT "event_sessions_dirty_experiment_id_experiments_id_fk" FOREIGN KEY ("experiment_id") REFERENCES "public"."experiments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "event_sessions_dirty_session_idx" ON "event_sessions_dirty" USING btree ("experiment_id","unit","session_id");