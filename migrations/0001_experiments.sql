CREATE TYPE "public"."experiment_scope" AS ENUM('all', 'subject', 'list');--> statement-breakpoint
CREATE TYPE "public"."experiment_status" AS ENUM('draft', 'running', 'stopped');--> statement-breakpoint
CREATE TABLE "arms" (
	"id" serial PRIMARY KEY NOT NULL,
	"experiment_id" integer NOT NULL,
	"key" text NOT NULL,
	"system_id" integer NOT NULL,
	"weight" double precision NOT NULL,
	"is_control" boolean DEFAULT false NOT NULL,
	"position" integer NOT NULL,
	CONSTRAINT "arms_experiment_key" UNIQUE("experiment_id","key"),
	CONSTRAINT "arms_experiment_position" UNIQUE("experiment_id","position")
);
--> statement-breakpoint
CREATE TABLE "convener_assignments" (
	"user_id" integer NOT NULL,
	"proposal_id" integer NOT NULL,
	"assigned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "convener_assignments_user_id_proposal_id_pk" PRIMARY KEY("user_id","proposal_id")
);
--> statement-breakpoint
CREATE TABLE "events" (
	"event_id" text PRIMARY KEY NOT NULL,
	"experiment_id" integer NOT NULL,
	"type" text NOT NULL,
	"at" timestamp with time zone NOT NULL,
	"arm" text NOT NULL,
	"unit" text NOT NULL,
	"session_id" text NOT NULL,
	"proposal_id" text NOT NULL,
	"candidate_id" text,
	"items" text[],
	"received_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
CREATE TABLE "experiment_api_keys" (
	"id" serial PRIMARY KEY NOT NULL,
	"experiment_id" integer NOT NULL,
	"prefix" text NOT NULL,
	"hash" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"expires_at" timestamp with time zone,
	"revoked_at" timestamp with time zone,
	CONSTRAINT "experiment_api_keys_hash_unique" UNIQUE("hash")
);
--> statement-breakpoint
CREATE TABLE "experiment_proposals" (
	"experiment_id" integer NOT NULL,
	"proposal_id" integer NOT NULL,
	CONSTRAINT "experiment_proposals_experiment_id_proposal_id_pk" PRIMARY KEY("experiment_id","proposal_id")
);
--> statement-breakpoint
CREATE TABLE "experiments" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"status" "experiment_status" DEFAULT 'draft' NOT NULL,
	"seed" text NOT NULL,
	"coverage" double precision DEFAULT 1 NOT NULL,
	"committee_cap" integer DEFAULT 5 NOT NULL,
	"scope" "experiment_scope" DEFAULT 'all' NOT NULL,
	"scope_subject_id" integer,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"started_at" timestamp with time zone,
	"stopped_at" timestamp with time zone,
	CONSTRAINT "experiments_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "exposures" (
	"experiment_id" integer NOT NULL,
	"unit" text NOT NULL,
	"arm_id" integer NOT NULL,
	"exposed_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "exposures_experiment_id_unit_pk" PRIMARY KEY("experiment_id","unit")
);
--> statement-breakpoint
ALTER TABLE "arms" ADD CONSTRAINT "arms_experiment_id_experiments_id_fk" FOREIGN KEY ("experiment_id") REFERENCES "public"."experiments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "arms" ADD CONSTRAINT "arms_system_id_systems_id_fk" FOREIGN KEY ("system_id") REFERENCES "public"."systems"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "convener_assignments" ADD CONSTRAINT "convener_assignments_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "convener_assignments" ADD CONSTRAINT "convener_assignments_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "events" ADD CONSTRAINT "events_experiment_id_experiments_id_fk" FOREIGN KEY ("experiment_id") REFERENCES "public"."experiments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiment_api_keys" ADD CONSTRAINT "experiment_api_keys_experiment_id_experiments_id_fk" FOREIGN KEY ("experiment_id") REFERENCES "public"."experiments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiment_proposals" ADD CONSTRAINT "experiment_proposals_experiment_id_experiments_id_fk" FOREIGN KEY ("experiment_id") REFERENCES "public"."experiments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiment_proposals" ADD CONSTRAINT "experiment_proposals_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "experiments" ADD CONSTRAINT "experiments_scope_subject_id_subjects_id_fk" FOREIGN KEY ("scope_subject_id") REFERENCES "public"."subjects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exposures" ADD CONSTRAINT "exposures_experiment_id_experiments_id_fk" FOREIGN KEY ("experiment_id") REFERENCES "public"."experiments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "exposures" ADD CONSTRAINT "exposures_arm_id_arms_id_fk" FOREIGN KEY ("arm_id") REFERENCES "public"."arms"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "events_experiment_at_idx" ON "events" USING btree ("experiment_id","at");--> statement-breakpoint
CREATE INDEX "events_experiment_session_idx" ON "events" USING btree ("experiment_id","unit","session_id");--> statement-breakpoint
CREATE INDEX "experiment_api_keys_experiment_idx" ON "experiment_api_keys" USING btree ("experiment_id");