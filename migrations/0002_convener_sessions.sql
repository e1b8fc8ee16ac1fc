CREATE TYPE "public"."convener_session_status" AS ENUM('open', 'finished');--> statement-breakpoint
CREATE TABLE "committee_members" (
	"session_id" text NOT NULL,
	"candidate_id" integer NOT NULL,
	"adopted_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "committee_members_session_id_candidate_id_pk" PRIMARY KEY("session_id","candidate_id")
);
--> statement-breakpoint
CREATE TABLE "convener_sessions" (
	"id" text PRIMARY KEY NOT NULL,
	"experiment_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	"proposal_id" integer NOT NULL,
	"unit" text NOT NULL,
	"arm" text NOT NULL,
	"status" "convener_session_status" DEFAULT 'open' NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"finished_at" timestamp with time zone
);
--> statement-breakpoint
ALTER TABLE "committee_members" ADD CONSTRAINT "committee_members_session_id_convener_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."convener_sessions"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "committee_members" ADD CONSTRAINT "committee_members_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "convener_sessions" ADD CONSTRAINT "convener_sessions_experiment_id_experiments_id_fk" FOREIGN KEY ("experiment_id") REFERENCES "public"."experiments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "convener_sessions" ADD CONSTRAINT "convener_sessions_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "convener_sessions" ADD CONSTRAINT "convener_sessions_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "convener_sessions_lookup_idx" ON "convener_sessions" USING btree ("experiment_id","user_id","proposal_id");--> statement-breakpoint
CREATE UNIQUE INDEX "convener_sessions_one_open_idx" ON "convener_sessions" USING btree ("experiment_id","user_id","proposal_id") WHERE "convener_sessions"."status" = 'open';