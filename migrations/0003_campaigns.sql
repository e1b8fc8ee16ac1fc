CREATE TYPE "public"."campaign_status" AS ENUM('draft', 'running', 'closed');--> statement-breakpoint
CREATE TABLE "campaign_assignments" (
	"id" serial PRIMARY KEY NOT NULL,
	"campaign_id" integer NOT NULL,
	"proposal_id" integer NOT NULL,
	"expert_id" integer NOT NULL,
	"seed" text NOT NULL,
	"finished_at" timestamp with time zone,
	"active" boolean DEFAULT true NOT NULL,
	"assigned_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "campaign_assignments_once" UNIQUE("campaign_id","proposal_id","expert_id")
);
--> statement-breakpoint
CREATE TABLE "campaign_experts" (
	"campaign_id" integer NOT NULL,
	"user_id" integer NOT NULL,
	CONSTRAINT "campaign_experts_campaign_id_user_id_pk" PRIMARY KEY("campaign_id","user_id")
);
--> statement-breakpoint
CREATE TABLE "campaign_items" (
	"id" serial PRIMARY KEY NOT NULL,
	"campaign_id" integer NOT NULL,
	"proposal_id" integer NOT NULL,
	"candidate_id" integer NOT NULL,
	"alias" text NOT NULL,
	CONSTRAINT "campaign_items_pair" UNIQUE("campaign_id","proposal_id","candidate_id"),
	CONSTRAINT "campaign_items_alias" UNIQUE("campaign_id","proposal_id","alias")
);
--> statement-breakpoint
CREATE TABLE "campaign_proposals" (
	"campaign_id" integer NOT NULL,
	"proposal_id" integer NOT NULL,
	CONSTRAINT "campaign_proposals_campaign_id_proposal_id_pk" PRIMARY KEY("campaign_id","proposal_id")
);
--> statement-breakpoint
CREATE TABLE "campaign_systems" (
	"campaign_id" integer NOT NULL,
	"system_id" integer NOT NULL,
	CONSTRAINT "campaign_systems_campaign_id_system_id_pk" PRIMARY KEY("campaign_id","system_id")
);
--> statement-breakpoint
CREATE TABLE "campaigns" (
	"id" serial PRIMARY KEY NOT NULL,
	"name" text NOT NULL,
	"instructions" text DEFAULT '' NOT NULL,
	"status" "campaign_status" DEFAULT 'draft' NOT NULL,
	"pool_depth" integer NOT NULL,
	"raters_per_proposal" integer NOT NULL,
	"deadline" timestamp with time zone,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	"launched_at" timestamp with time zone,
	"closed_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "ratings" (
	"assignment_id" integer NOT NULL,
	"item_id" integer NOT NULL,
	"grade" smallint,
	"rationale" text DEFAULT '' NOT NULL,
	"position" integer NOT NULL,
	"time_spent_ms" integer DEFAULT 0 NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ratings_assignment_id_item_id_pk" PRIMARY KEY("assignment_id","item_id")
);
--> statement-breakpoint
ALTER TABLE "campaign_assignments" ADD CONSTRAINT "campaign_assignments_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_assignments" ADD CONSTRAINT "campaign_assignments_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_assignments" ADD CONSTRAINT "campaign_assignments_expert_id_users_id_fk" FOREIGN KEY ("expert_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_experts" ADD CONSTRAINT "campaign_experts_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_experts" ADD CONSTRAINT "campaign_experts_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_items" ADD CONSTRAINT "campaign_items_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_items" ADD CONSTRAINT "campaign_items_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_items" ADD CONSTRAINT "campaign_items_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_proposals" ADD CONSTRAINT "campaign_proposals_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_proposals" ADD CONSTRAINT "campaign_proposals_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_systems" ADD CONSTRAINT "campaign_systems_campaign_id_campaigns_id_fk" FOREIGN KEY ("campaign_id") REFERENCES "public"."campaigns"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "campaign_systems" ADD CONSTRAINT "campaign_systems_system_id_systems_id_fk" FOREIGN KEY ("system_id") REFERENCES "public"."systems"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_assignment_id_campaign_assignments_id_fk" FOREIGN KEY ("assignment_id") REFERENCES "public"."campaign_assignments"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ratings" ADD CONSTRAINT "ratings_item_id_campaign_items_id_fk" FOREIGN KEY ("item_id") REFERENCES "public"."campaign_items"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "campaign_assignments_expert_idx" ON "campaign_assignments" USING btree ("expert_id");