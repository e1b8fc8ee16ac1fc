CREATE TYPE "public"."role" AS ENUM('admin', 'analyst', 'expert', 'convener');--> statement-breakpoint
CREATE TABLE "candidates" (
	"id" serial PRIMARY KEY NOT NULL,
	"external_id" text NOT NULL,
	"name" text NOT NULL,
	"affiliation" text DEFAULT '' NOT NULL,
	"email" text,
	"keywords" text[] DEFAULT '{}' NOT NULL,
	"summary" text DEFAULT '' NOT NULL,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "candidates_external_id_unique" UNIQUE("external_id")
);
--> statement-breakpoint
CREATE TABLE "proposals" (
	"id" serial PRIMARY KEY NOT NULL,
	"external_id" text NOT NULL,
	"title" text NOT NULL,
	"abstract" text DEFAULT '' NOT NULL,
	"keywords" text[] DEFAULT '{}' NOT NULL,
	"subject_id" integer,
	"updated_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "proposals_external_id_unique" UNIQUE("external_id")
);
--> statement-breakpoint
CREATE TABLE "subjects" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	CONSTRAINT "subjects_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "gold_members" (
	"proposal_id" integer NOT NULL,
	"candidate_id" integer NOT NULL,
	CONSTRAINT "gold_members_proposal_id_candidate_id_pk" PRIMARY KEY("proposal_id","candidate_id")
);
--> statement-breakpoint
CREATE TABLE "list_items" (
	"list_id" integer NOT NULL,
	"rank" integer NOT NULL,
	"candidate_id" integer NOT NULL,
	"score" double precision,
	CONSTRAINT "list_items_list_id_rank_pk" PRIMARY KEY("list_id","rank"),
	CONSTRAINT "list_items_list_candidate" UNIQUE("list_id","candidate_id")
);
--> statement-breakpoint
CREATE TABLE "ranked_lists" (
	"id" serial PRIMARY KEY NOT NULL,
	"system_id" integer NOT NULL,
	"proposal_id" integer NOT NULL,
	"variant" text DEFAULT 'default' NOT NULL,
	"imported_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "ranked_lists_system_proposal_variant" UNIQUE("system_id","proposal_id","variant")
);
--> statement-breakpoint
CREATE TABLE "systems" (
	"id" serial PRIMARY KEY NOT NULL,
	"key" text NOT NULL,
	"name" text NOT NULL,
	"version" text DEFAULT '' NOT NULL,
	CONSTRAINT "systems_key_unique" UNIQUE("key")
);
--> statement-breakpoint
CREATE TABLE "user_subjects" (
	"user_id" integer NOT NULL,
	"subject_id" integer NOT NULL,
	CONSTRAINT "user_subjects_user_id_subject_id_pk" PRIMARY KEY("user_id","subject_id")
);
--> statement-breakpoint
CREATE TABLE "users" (
	"id" serial PRIMARY KEY NOT NULL,
	"email" text NOT NULL,
	"name" text NOT NULL,
	"role" "role" NOT NULL,
	"password_hash" text NOT NULL,
	"active" boolean DEFAULT true NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "proposals" ADD CONSTRAINT "proposals_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gold_members" ADD CONSTRAINT "gold_members_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "gold_members" ADD CONSTRAINT "gold_members_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "list_items" ADD CONSTRAINT "list_items_list_id_ranked_lists_id_fk" FOREIGN KEY ("list_id") REFERENCES "public"."ranked_lists"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "list_items" ADD CONSTRAINT "list_items_candidate_id_candidates_id_fk" FOREIGN KEY ("candidate_id") REFERENCES "public"."candidates"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ranked_lists" ADD CONSTRAINT "ranked_lists_system_id_systems_id_fk" FOREIGN KEY ("system_id") REFERENCES "public"."systems"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "ranked_lists" ADD CONSTRAINT "ranked_lists_proposal_id_proposals_id_fk" FOREIGN KEY ("proposal_id") REFERENCES "public"."proposals"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_subjects" ADD CONSTRAINT "user_subjects_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "user_subjects" ADD CONSTRAINT "user_subjects_subject_id_subjects_id_fk" FOREIGN KEY ("subject_id") REFERENCES "public"."subjects"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "proposals_subject_idx" ON "proposals" USING btree ("subject_id");--> statement-breakpoint
CREATE INDEX "ranked_lists_proposal_idx" ON "ranked_lists" USING btree ("proposal_id");--> statement-breakpoint
CREATE INDEX "user_subjects_subject_idx" ON "user_subjects" USING btree ("subject_id");--> statement-breakpoint
CREATE UNIQUE INDEX "users_email_lower_idx" ON "users" USING btree (lower("email"));