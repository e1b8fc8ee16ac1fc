CREATE TYPE "public"."experiment_kind" AS ENUM('ab', 'interleaving');--> statement-breakpoint
ALTER TYPE "public"."snapshot_kind" ADD VALUE 'clicks';--> statement-breakpoint
CREATE TABLE "conflicts" (
	"proposal_id" integer NOT NULL,
	"candidate_id" integer NOT NULL,
	"reason" text DEFAULT '' NOT NULL,
	CONSTRAINT "conflicts_proposal_id_candidate_id_pk" PRIMARY KEY("proposal_id","candidate_id")
);
--> statement-breakpoint
ALTER TABLE "candidates" ADD COLUMN "profile_date" date;--> statement-breakpoint
ALTER TABLE "proposals" ADD COLUMN "date" date;--> statement-breakpoint
ALTER TABLE "events" ADD COLUMN "teams" text[];--> statement-breakpoint
ALTER TABLE "experiments" ADD COLUMN "kind" "experiment_kind" DEFAULT 'ab' NOT NULL;--> statement-breakpoint
ALTER TABLE "conflicts" ADD CONSTRAINT "conflicts_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conflicts" ADD CONSTRAINT "conflicts_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE cascade ON UPDATE no action;