CREATE TYPE "public"."experiment_kind" AS ENUM('ab', 'interleaving');--> statement-breakpoint
ALTER TYPE "public"."snapshot_kind" ADD VALUE 'clicks';--> statement-breakpoint
CREATE TABLE "campaign_truth" (
	"item_id" integer PRIMARY KEY NOT NULL,
	"grade" smallint NOT NULL,
	"set_by" integer,
	"set_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
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
ALTER TABLE "campaign_truth" ADD CONSTRAINT "campaign_truth_item_id_campaign_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."campaign_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_truth" ADD CONSTRAINT "campaign_truth_set_by_users_id_fk" FOREIGN KEY ("set_by") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conflicts" ADD CONSTRAINT "conflicts_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "conflicts" ADD CONSTRAINT "conflicts_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE cascade ON UPDATE no action;